/** Workflow and schedule ids of screening, so the API, the worker, the sweeper and operators agree on them. */

/** One workflow per job: a second start of the same request id is refused by Temporal. */
export const screeningWorkflowId = (requestId: string): string => `screening:${requestId}`;

/** The schedule that sweeps queued jobs, one per task queue (its runs get `<id>-<timestamp>` workflow ids). */
export const queuedJobSweeperScheduleId = (taskQueue: string): string => `queued-job-sweeper:${taskQueue}`;
