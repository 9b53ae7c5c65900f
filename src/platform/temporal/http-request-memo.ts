/**
 * The HTTP request that started a workflow, kept in its memo (shown in the Temporal UI under "Memo") so an
 * operator can go from an access-log line to the workflow and back. The worker's interceptors read it from
 * there and put it on every activity (src/platform/temporal/workflow-context-interceptor.ts,
 * src/platform/logging/activity-log-context.ts).
 * Optional everywhere: workflows started by schedules, the sweeper or before this existed have none.
 * No runtime imports: this module is part of the workflow bundle.
 */
export const HTTP_REQUEST_ID_MEMO = 'httpRequestId';

/** The Temporal header that carries it from a workflow to its activities. */
export const HTTP_REQUEST_ID_HEADER = 'httpRequestId';

/** A start option's memo for this id (undefined when there is none, so no empty memo is written). */
export function httpRequestMemo(httpRequestId: string | undefined): Record<string, string> | undefined {
  return httpRequestId ? { [HTTP_REQUEST_ID_MEMO]: httpRequestId } : undefined;
}
