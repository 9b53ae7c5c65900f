/** Workflow ids of batch screening, so the API, the worker, the sweep and operators agree on them. */

/** One workflow per batch (continued as new as it goes): a second start finds the running one. */
export const batchWorkflowId = (batchId: string): string => `batch:${batchId}`;
