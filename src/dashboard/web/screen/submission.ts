import type { ApiType, JobStatus, JobView } from './job-types';

/** What this tab submitted, and what it has learnt about it since (view state: never sent by the API). */
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
