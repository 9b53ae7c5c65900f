import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { httpRequestMemo } from '../temporal/http-request-memo';
import { EventTypeAttr, ProviderAttr } from '../temporal/search-attributes';
import { PLATFORM_ERRORS } from '../errors';
import { flatError } from '../http/errors';
import type { Logger } from '../logging/logger';
import { errorFields } from '../logging/logger';
import type { WebhookProvider } from './webhook-provider';

export interface EventWorkflowStart {
  /** The workflow the provider's feature registers for its events. */
  workflowType: string;
  workflowId: string;
  args: unknown[];
  provider: WebhookProvider;
  eventType: string;
  /** The delivery's HTTP request id, kept in the workflow's memo (the first delivery's, for a duplicate). */
  httpRequestId?: string;
}

/**
 * Starts the one workflow of a provider event. A running twin is reused (USE_EXISTING) and a completed
 * one refuses the start (ALLOW_DUPLICATE_FAILED_ONLY): both mean "already accepted", answered 200 so the
 * provider stops retrying; only a failed run may be started again by a redelivery. If Temporal cannot
 * be reached the answer is 503, so the provider retries later and nothing is lost.
 */
export function createEventWorkflowStarter(deps: { temporal: Client; taskQueue: string; log: Logger }) {
  return async function startEventWorkflow(start: EventWorkflowStart): Promise<'accepted' | 'duplicate'> {
    try {
      await deps.temporal.workflow.start(start.workflowType, {
        workflowId: start.workflowId,
        taskQueue: deps.taskQueue,
        args: start.args as [],
        workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
        workflowIdConflictPolicy: 'USE_EXISTING',
        typedSearchAttributes: [
          { key: ProviderAttr, value: start.provider },
          { key: EventTypeAttr, value: start.eventType },
        ],
        staticSummary: `${start.provider} ${start.eventType}`,
        memo: httpRequestMemo(start.httpRequestId),
      });
      return 'accepted';
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return 'duplicate';
      deps.log.error('event workflow did not start; the provider will retry', {
        workflowId: start.workflowId,
        httpRequestId: start.httpRequestId,
        ...errorFields(err),
      });
      throw flatError(PLATFORM_ERRORS.SERVICE_UNAVAILABLE, 'The event could not be accepted right now; please retry');
    }
  };
}

export type StartEventWorkflow = ReturnType<typeof createEventWorkflowStarter>;
