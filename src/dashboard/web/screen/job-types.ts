/** Shapes of the screening job API as the dashboard reads them (GET /kyt/job/:id[/fullresponse]). */

export type JobStatus = 'queued' | 'completed' | 'failed';
export type ApiType = 'KYA' | 'KYT';

/** `job_status_changed` on the socket: the summary of a status change, pushed in the mirror's transaction. */
export interface JobStatusEvent {
  request_id: string;
  status: JobStatus;
  reference_id: string | null;
  api_type: ApiType;
  chain: string;
  risk_level: string | null;
  risk_score: number | null;
  error_code: string | null;
  updated_at: string;
}

/** One finding: on the screened party itself (hop 0) or reached by the exposure crawl along `path`. */
export interface Hit {
  rule: string;
  score: number;
  address: string;
  role: string;
  hop: number;
  source: string;
  category?: string;
  detail?: string;
  /** Screened party first, the listed address last. */
  path?: string[];
  direction?: 'in' | 'out';
  usd?: number;
  share?: number;
}

export interface GraphNode {
  address: string;
  hop: number;
  role: string;
  labels: string[];
  share?: number;
  /** Why the crawl did not go further from here (sanctioned, labelled, hub, deadline, last_hop), or null. */
  stop?: string | null;
}

export interface GraphEdge {
  from: string;
  to: string;
  hop: number;
  amount?: string;
  asset?: string;
  usd?: number | null;
  txids?: string[];
}

export interface CrawlReport {
  ran: boolean;
  complete: boolean;
  truncated: string[];
  depth_planned: number;
  depth_reached: number;
  nodes_visited: number;
  note: string | null;
}

export interface FullResponse {
  api_type: ApiType;
  chain: string;
  risk_level: string;
  risk_score: number;
  risk_reason: string;
  response_id: string;
  rule_scores: Record<string, number>;
  hits?: Hit[];
  crawl?: CrawlReport;
  graph?: { nodes: GraphNode[]; edges: GraphEdge[] };
}

export interface JobError {
  code: string;
  message: string;
}

/** GET /kyt/job/:id/fullresponse `data`. */
export interface JobView {
  request_id: string;
  status: JobStatus;
  reference_id: string | null;
  created_at: number;
  completed_at?: number;
  response?: FullResponse;
  credits_charged?: number;
  error?: JobError;
}

/** What this tab submitted, and what it has learnt about it since. */
export interface Submission {
  requestId: string;
  apiType: ApiType;
  chain: string;
  target: string;
  referenceId: string | null;
  status: JobStatus;
  submittedAt: number;
  /** The full result (or the failure) once the job has finished and it has been read. */
  outcome?: JobView;
  /** Reading the outcome failed: shown in words, the status stays what the socket said. */
  outcomeError?: unknown;
}
