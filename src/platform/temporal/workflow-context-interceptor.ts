/**
 * Workflow interceptors (registered by the worker through `interceptors.workflowModules`, and bundled with
 * the workflows). They copy the workflow's memo `httpRequestId` onto every activity it schedules, as a
 * Temporal header, and onto the workflow's own log lines. The memo is fixed at start and recorded in history,
 * so replay reads the same value: deterministic, and nothing changes for workflows that have none.
 */
import { defaultPayloadConverter, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import type { Payload } from '@temporalio/common';
import { HTTP_REQUEST_ID_HEADER, HTTP_REQUEST_ID_MEMO } from './http-request-memo';

function httpRequestIdOfWorkflow(): string | undefined {
  const value = workflowInfo().memo?.[HTTP_REQUEST_ID_MEMO];
  return typeof value === 'string' ? value : undefined;
}

function withHeader(headers: Record<string, Payload>): Record<string, Payload> {
  const id = httpRequestIdOfWorkflow();
  return id ? { ...headers, [HTTP_REQUEST_ID_HEADER]: defaultPayloadConverter.toPayload(id) } : headers;
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  outbound: [
    {
      scheduleActivity: (input, next) => next({ ...input, headers: withHeader(input.headers) }),
      scheduleLocalActivity: (input, next) => next({ ...input, headers: withHeader(input.headers) }),
      getLogAttributes: (input, next) => {
        const id = httpRequestIdOfWorkflow();
        return next(id ? { ...input, httpRequestId: id } : input);
      },
    },
  ],
});
