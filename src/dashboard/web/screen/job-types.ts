/**
 * The screening job API as the dashboard reads it, derived from the schemas the routes answer with
 * (src/screening/job-views.ts). Type-only imports: esbuild erases them, so no server code is bundled.
 */
import type { z } from 'zod';
import type {
  fullResponseSchema,
  polledFullJobSchema,
  screeningResponseSchema,
  submittedJobSchema,
} from '../../../screening';

/** POST /kyt/job `data`: the job as queued. */
export type SubmittedJob = z.output<typeof submittedJobSchema>;

/** GET /kyt/job/:id[/fullresponse] `data`: queued, completed with the response, or failed with why. */
export type JobView = z.output<typeof polledFullJobSchema>;
export type JobStatus = JobView['status'];

/** /fullresponse: the response plus every hit, the crawl and its graph. */
export type FullResponse = z.output<typeof fullResponseSchema>;
export type ApiType = FullResponse['api_type'];
/** One finding: on the screened party itself (hop 0) or reached by the exposure crawl along `path`. */
export type Hit = FullResponse['hits'][number];
export type CrawlReport = FullResponse['crawl'];
export type GraphNode = FullResponse['graph']['nodes'][number];
export type GraphEdge = FullResponse['graph']['edges'][number];

type ScreeningResponse = z.output<typeof screeningResponseSchema>;

/**
 * `job_status_changed` on the socket: the summary of a status change, built in SQL (the trigger function
 * screening_jobs_status_to_outbox) from the job's columns and its response's risk fields (null until it
 * has one).
 */
export type JobStatusEvent = Pick<JobView, 'request_id' | 'status' | 'reference_id'> &
  Pick<ScreeningResponse, 'api_type' | 'chain'> & {
    risk_level: ScreeningResponse['risk_level'] | null;
    risk_score: ScreeningResponse['risk_score'] | null;
    error_code: Extract<JobView, { status: 'failed' }>['error']['code'] | null;
    /** ISO 8601 UTC. */
    updated_at: string;
  };
