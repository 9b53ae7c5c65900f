/** Every workflow id is built here, so the API, the worker and operators agree on them. */
export const screeningWorkflowId = (requestId: string): string => `screening:${requestId}`;
