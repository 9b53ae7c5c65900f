import { activityInfo, cancellationSignal, heartbeat } from '@temporalio/activity';
import type { HistoryStore } from '../src/history';
import type { CreditStore } from '../src/billing';
import type { Pool } from 'pg';
import type { AppliedJobUpdate, JobStore, JobUpdate } from '../src/screening/jobs-store';
import { screeningHistoryEntry } from '../src/screening/screening-history-entry';
import {
  settleCompletedJob,
  settleFailedJob,
  type CompletedJobSettlement,
  type FailedJobSettlement,
  type SettledJob,
} from '../src/screening/settle-job';
import { isSupportedChain } from '../src/screening/chains/chain';
import type { ScreeningEngine } from '../src/screening/engine/engine';
import type { AnalysisResult } from '../src/screening/engine/types';
import type { ScreeningWorkerMetrics } from '../src/screening/metrics/ports';
import type { Logger } from '../src/platform/logging/logger';
import type { ScreeningInput } from '../src/screening/workflow-types';
import { AppError } from '../src/platform/errors';
import { toApplicationFailure } from '../src/platform/errors/temporal-failures';
import { deadline } from '../src/platform/abort/deadline';
import { isUuid } from '../src/platform/http/common-patterns';
import { checkFailedJobSettle, checkJobInput } from '../src/screening/authentic-input';
import { checkReportInput, type X402PaymentStore } from '../src/x402';

export interface ScreeningActivityDeps {
  /** The settles run their writes in one transaction on one of its connections. */
  pool: Pool;
  engine: ScreeningEngine;
  credits: CreditStore;
  jobs: JobStore;
  history: HistoryStore;
  /** The x402 claims an x402ReportWorkflow's input is checked against. */
  x402Payments: Pick<X402PaymentStore, 'processingReport'>;
  metrics: ScreeningWorkerMetrics;
  /** Lines written here carry the job's workflowId and httpRequestId (the worker's activity log context). */
  log?: Logger;
}

export function createScreeningActivities(deps: ScreeningActivityDeps) {
  /** Counts a mirror write that applied (a retry that changed nothing counts nothing): each job ends counted once. */
  const countSettled = (status: 'completed' | 'failed', errorCode: string | null, applied: AppliedJobUpdate | null) => {
    if (!applied) return;
    deps.metrics.jobFinished({
      apiType: applied.apiType,
      chain: applied.chain,
      status,
      errorCode,
      seconds: (applied.completedAt.getTime() - applied.createdAt.getTime()) / 1000,
    });
  };

  /**
   * The input is what only the api could have produced, before any chain call or crawl: a job's hold and queued row
   * (screeningWorkflow, batchItemScreeningWorkflow), or a report's live x402 claim (x402ReportWorkflow).
   */
  const checkInput = async (input: ScreeningInput): Promise<AnalysisResult | null> => {
    const info = activityInfo();
    const workflow = { workflowId: info.workflowExecution?.workflowId ?? '' };
    if (info.workflowType === 'x402ReportWorkflow') {
      await checkReportInput(deps.x402Payments, input, workflow);
      return null;
    }
    if ((await checkJobInput(deps.pool, input, workflow)) === 'held') return null;
    return storedResult(input);
  };

  /** The answer a job's own settle stored: what a replayed analysis returns instead of crawling again. */
  const storedResult = async (input: ScreeningInput): Promise<AnalysisResult> => {
    const job = await deps.jobs.findForUser(input.requestId, input.userId);
    const full = job?.fullResponse as unknown as AnalysisResult['full'] | null | undefined;
    if (!job?.response || !full) throw new AppError('ANALYSIS_FAILED', 'the settled job has no stored answer');
    return {
      response: job.response as unknown as AnalysisResult['response'],
      full,
      depthReached: full.crawl.depth_reached,
    };
  };

  const activities = {
    /**
     * Runs the engine within crawlTimeout, once the input is checked (INPUT_NOT_AUTHENTIC, not retried, when it is
     * not the api's). Heartbeats while it works, so a dead worker is noticed after heartbeatTimeout and the analysis
     * is retried on another one. Read-only: retries are harmless.
     */
    async analyzeTarget(input: ScreeningInput): Promise<AnalysisResult> {
      let settled: AnalysisResult | null;
      try {
        settled = await checkInput(input);
      } catch (err) {
        throw toApplicationFailure(err);
      }
      if (settled) return settled;
      if (!isSupportedChain(input.chain)) {
        throw toApplicationFailure(new AppError('INVALID_TARGET', `unsupported chain ${input.chain}`));
      }
      // A local activity (a batch item's) has no heartbeat: the workflow task it runs in is its liveness.
      const local = activityInfo().isLocal;
      const every = Math.max(200, Math.floor((activityInfo().heartbeatTimeoutMs ?? 10_000) / 3));
      const beat = local ? undefined : setInterval(() => heartbeat(), every);
      const crawlDeadline = deadline(input.crawlTimeoutMs, cancellationSignal());
      try {
        if (!local) heartbeat();
        const started = Date.now();
        const result = await deps.engine.analyze(
          {
            apiType: input.apiType,
            chain: input.chain,
            target: input.target,
            maxDepth: input.maxDepth,
            crawlTimeoutMs: input.crawlTimeoutMs,
            policy: input.policy ?? null,
            // x402 reports have no account (userId 'x402'): the lists alone.
            ...(isUuid(input.userId) ? { accountId: input.userId } : {}),
          },
          crawlDeadline.signal,
        );
        deps.log?.info('target analysed', {
          requestId: input.requestId,
          apiType: input.apiType,
          chain: input.chain,
          riskLevel: result.response.risk_level,
          riskScore: result.response.risk_score,
          depthReached: result.depthReached,
          ms: Date.now() - started,
        });
        // Fan-out trimming is how every crawl works, not a cut: only the other reasons are counted.
        deps.metrics.crawlCutShort(
          input.chain,
          result.full.crawl.truncated.filter((reason) => reason !== 'fanout'),
        );
        return result;
      } catch (err) {
        throw toApplicationFailure(err);
      } finally {
        clearInterval(beat);
        crawlDeadline.dispose();
      }
    },

    /**
     * Charges a completed job. Idempotency key 'screening:<request_id>': a retry after the commit
     * finds the first charge and returns it, so the account is debited exactly once.
     */
    async chargeCredits(input: { requestId: string; userId: string; amount: number; depthReached: number }) {
      try {
        const charged = await deps.credits.consume({
          userId: input.userId,
          amount: input.amount,
          idempotencyKey: `screening:${input.requestId}`,
          holdKey: input.requestId,
          reason: `screening ${input.requestId}`,
          metadata: { requestId: input.requestId, depthReached: input.depthReached },
        });
        if (!charged.duplicate) deps.metrics.creditsConsumed(input.amount);
        return charged;
      } catch (err) {
        throw toApplicationFailure(err);
      }
    },

    /** Gives the job's hold back (failed analysis). Releasing twice is a no-op. */
    async releaseCredits(input: { requestId: string }): Promise<number> {
      return deps.credits.releaseHold(input.requestId);
    },

    /**
     * Writes the final state to the polling mirror; guarded by seq, so a late retry cannot overwrite newer
     * state. The job counts as finished in the metrics only when this write applied.
     */
    async saveJobResult(update: JobUpdate): Promise<boolean> {
      const applied = await deps.jobs.applyUpdate(update);
      countSettled(update.status, update.error?.code ?? null, applied);
      return applied !== null;
    },

    /** One activity-history row per completed job, key 'screening:<request_id>' (ON CONFLICT DO NOTHING). */
    async recordScreeningActivity(input: { job: ScreeningInput; result: AnalysisResult }): Promise<string> {
      const { id } = await deps.history.record(screeningHistoryEntry(input.job, input.result));
      return id;
    },
  };

  return {
    ...activities,

    /**
     * A completed job's charge, history row and mirror write in ONE transaction (src/screening/settle-job.ts): the
     * job's second and last activity (screeningWorkflow after the patch 'job-settles-in-one-transaction', and every
     * batch item). Idempotent as a whole: charge key and history key `screening:<request_id>`, the mirror seq-guarded.
     */
    async settleCompletedJob(input: CompletedJobSettlement): Promise<SettledJob> {
      try {
        const { charged, applied, mirrorWrite } = await settleCompletedJob(deps, input);
        if (!charged.duplicate) deps.metrics.creditsConsumed(input.amount);
        countSettled('completed', null, applied);
        return { applied: applied !== null, mirrorWrite };
      } catch (err) {
        throw toApplicationFailure(err);
      }
    },

    /**
     * A failed job: its hold released and the mirror written as failed, in one transaction; nothing is charged. Only
     * in the job's own workflow and for its owner and hold (INPUT_NOT_AUTHENTIC otherwise: nothing released).
     */
    async settleFailedJob(input: FailedJobSettlement): Promise<boolean> {
      try {
        await checkFailedJobSettle(deps.pool, input, {
          workflowId: activityInfo().workflowExecution?.workflowId ?? '',
        });
      } catch (err) {
        throw toApplicationFailure(err);
      }
      const { applied } = await settleFailedJob(deps, input);
      countSettled('failed', input.error.code, applied);
      return applied !== null;
    },
  };
}

export type ScreeningActivities = ReturnType<typeof createScreeningActivities>;
