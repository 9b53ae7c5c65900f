import type { ApiType, RiskLevel } from '../../../workflows/defs';

export interface RuleScores {
  tag_score: number;
  is_sanctioned: number;
  is_blacklisted: number;
  receive_count: number;
  address_type: number;
  active_duration: number;
}

export interface Tag {
  name: string;
  type: string;
  display: string;
}

export interface Balance {
  asset: string;
  amount: number;
  usd: number;
}

/** The `response` object of a completed job (spec 2.4). */
export interface ScreeningResponse {
  api_type: ApiType;
  chain: string;
  risk_level: RiskLevel;
  risk_score: number;
  response_id: string;
  risk_reason: string;
  rule_scores: RuleScores;
  target_summary: { address: string; tags: Tag[]; balances: Balance[] };
}

/** One fact that moved a rule, with enough detail to re-derive the score by hand. */
export interface Hit {
  rule: keyof RuleScores;
  score: number;
  address: string;
  role: string;
  hop: number;
  category: string;
  source: string | null;
  detail: string;
}

export interface CrawlReport {
  ran: boolean;
  /** Why the crawl did not run or stopped early; null when it completed. */
  note: string | null;
  complete: boolean;
  depth_planned: number;
  depth_reached: number;
  nodes_visited: number;
  truncated: string[];
}

/** The complete payload served by /fullresponse: the response plus how it was reached. */
export interface FullResponse extends ScreeningResponse {
  hits: Hit[];
  crawl: CrawlReport;
  graph: { nodes: { address: string; role: string; hop: number }[]; edges: { from: string | null; to: string | null; asset: string; amount: string }[] };
  transaction: { hash: string; status: string; block_number: string | null; timestamp: string | null } | null;
  pricing: { asset: string; usd_price: number | null; as_of: string | null; source: string | null }[];
  unpriced_assets: string[];
  model: { version: string; levels: { LOW: string; MEDIUM: string; HIGH: string } };
  performance: { analysis_ms: number; chain_ms: number; lists_ms: number };
}

export interface AnalysisResult {
  response: ScreeningResponse;
  full: FullResponse;
  depthReached: number;
}
