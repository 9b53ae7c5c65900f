import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { deadline } from '../platform/abort/deadline';
import { httpRequestMemo } from '../platform/temporal/http-request-memo';
import { screeningWorkflowId } from './workflow-ids';
import type { ScreeningOutcome } from './workflow-types';
import type { CreditStore } from '../billing';
import type { JobRecord, JobStore } from './jobs-store';
import type { SubscriptionStore } from '../billing';
import type { User } from '../identity';
import { holdAndRecord } from './hold-and-record';
import type { EngineCapabilities } from './engine/capabilities';
import type { Logger } from '../platform/logging/logger';
import type { JobSubmitMetrics } from './metrics/ports';
import { errorFields } from '../platform/logging/logger';
import type { JobRequest } from './job-request';
import type { ScreeningWorkflowStarter } from './screening-workflow-starter';
import type { PolicyResolver } from './policy-resolver';
import { SCREENING_ERRORS } from './error-codes';

export interface JobServiceDeps {
  pool: Pool;
  credits: CreditStore;
  jobs: JobStore;
  subscriptions: SubscriptionStore;
  capabilities: EngineCapabilities;
  temporal: Client;
  starter: ScreeningWorkflowStarter;
  heartbeatTimeoutMs: number;
  log: Logger;
  metrics: JobSubmitMetrics;
  /** Finds the policy version a job is scored under (the policies feature). */
  policies: PolicyResolver;
}

export type SubmitResult =
  | { kind: 'queued'; job: JobRecord }
  /** paymentFailed: a subscription's last payment failed, which is why no credits came (spec 3.2). */
  | { kind: 'insufficient_credits'; needed: number; available: number; paymentFailed: boolean; debt: number }
  | { kind: 'not_started'; job: JobRecord };

/**
 * Submitting a job holds its credits and records it in one transaction (so concurrent submits can never
 * promise more than the balance), then starts its workflow. If the start fails and the workflow provably does
 * not exist, the hold is released; if the process dies between the commit and the start, or Temporal cannot
 * say whether the start took, the queued-job sweeper starts it (or releases it) later.
 */
export function createJobService(deps: JobServiceDeps) {
  /**
   * A start that errored may still have created the workflow (a timeout after the server wrote it), which then
   * runs and charges: so the job is only given up, its hold released and "nothing was charged" answered, when
   * Temporal says no such workflow exists. When it exists the job stands; when Temporal cannot say, the job stays
   * queued with its hold and the queued-job sweeper recovers it (starts it, copies its result, or releases it).
   */
  async function afterFailedStart(
    job: JobRecord,
    request: JobRequest,
    origin: { httpRequestId?: string },
    startError: unknown,
  ): Promise<SubmitResult> {
    const context = { requestId: job.requestId, httpRequestId: origin.httpRequestId, ...errorFields(startError) };
    let status: string | null;
    try {
      status = await deps.starter.status(job.requestId);
    } catch (describeError) {
      deps.log.error(
        'screening workflow start failed and Temporal cannot say whether it exists; the job stays ' +
          'queued with its hold for the queued-job sweeper',
        {
          ...context,
          describeError: describeError instanceof Error ? describeError.message : String(describeError),
        },
      );
      return { kind: 'queued', job };
    }
    if (status !== null) {
      deps.log.warn('screening workflow start answered an error but the workflow exists; the job stands', {
        ...context,
        workflowStatus: status,
      });
      return { kind: 'queued', job };
    }
    deps.log.error('screening workflow did not start; releasing its credits', context);
    await deps.credits.releaseHold(job.requestId);
    await deps.jobs.markNotStarted(job.requestId, {
      code: SCREENING_ERRORS.NOT_STARTED.code,
      message: 'The job could not be scheduled; nothing was charged',
    });
    deps.metrics.jobFailed(request.apiType, request.chain, SCREENING_ERRORS.NOT_STARTED.code);
    return { kind: 'not_started', job };
  }

  return {
    /** `origin.httpRequestId` goes into the workflow's memo, so the job's worker lines can be traced to the request. */
    async submit(user: User, request: JobRequest, origin: { httpRequestId?: string } = {}): Promise<SubmitResult> {
      const requestId = randomUUID();
      // Resolved once, at submit: the job keeps this version whatever edits follow (its answer names it).
      const policy = await deps.policies.resolve(user.id, request.policyId);
      const { policyId: _named, ...screening } = request;
      const held = await holdAndRecord(deps, user.id, screening, requestId, origin, policy);
      if (held.kind !== 'held') return held;
      const { job, input } = held;
      // Counted once the row is committed: every submitted job then ends counted as completed or failed.
      deps.metrics.jobSubmitted(request.apiType, request.chain);

      try {
        // A fresh request id cannot exist yet; 'exists' would only mean a duplicate start, which is harmless.
        await deps.starter.start(input, { memo: httpRequestMemo(origin.httpRequestId) });
      } catch (err) {
        return afterFailedStart(job, request, origin, err);
      }
      return { kind: 'queued', job };
    },

    /** Waits for the job's workflow to end, up to `timeoutMs`; null when it is still running then. */
    async waitForOutcome(requestId: string, timeoutMs: number): Promise<ScreeningOutcome | null> {
      const handle = deps.temporal.workflow.getHandle<() => Promise<ScreeningOutcome>>(screeningWorkflowId(requestId));
      // The deadline cancels Temporal's long poll itself: a poll merely raced against a timer lived on after the
      // answer and threw "Channel has been shut down" (uncaught) when the connection closed.
      const limit = deadline(timeoutMs);
      try {
        return await deps.temporal.withAbortSignal(limit.signal, () => handle.result());
      } catch (err) {
        if (limit.timedOut) return null;
        throw err;
      } finally {
        limit.dispose();
      }
    },
  };
}

export type JobService = ReturnType<typeof createJobService>;
