/** The counts screening code reports, as the parts of a process's metrics it is handed (src/app/metrics). */

/** A job's final mirror write, completed or failed, and the seconds since its submission. */
export interface FinishedJob {
  apiType: string;
  chain: string;
  status: 'completed' | 'failed';
  errorCode: string | null;
  seconds: number;
}

/** What the worker's screening activities count. */
export interface ScreeningWorkerMetrics {
  jobFinished(job: FinishedJob): void;
  creditsConsumed(amount: number): void;
  crawlCutShort(chain: string, reasons: string[]): void;
}

/** What a submit counts in the api: accepted jobs, and jobs it fails itself because their workflow did not start. */
export interface JobSubmitMetrics {
  jobSubmitted(apiType: string, chain: string): void;
  jobFailed(apiType: string, chain: string, code: string): void;
}
