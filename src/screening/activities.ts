import { activityInfo, cancellationSignal, heartbeat } from '@temporalio/activity';
import type { HistoryStore } from '../history';
import type { CreditStore } from '../billing';
import type { Pool } from 'pg';
import type { AppliedJobUpdate, JobStore } from './jobs-store';
import {
  settleCompletedJob,
  settleFailedJob,
  type CompletedJobSettlement,
  type FailedJobSettlement,
  type SettledJob,
} from './settle-job';
import { isSupportedChain } from './chains/chain';
import type { ScreeningEngine } from './engine/engine';
import type { AnalysisResult } from './engine/types';
import type { ScreeningWorkerMetrics } from './metrics/ports';
import type { Logger } from '../platform/logging/logger';
import type { ScreeningInput } from './workflow-types';
import { AppError, PLATFORM_ERRORS } from '../platform/errors';
import { toApplicationFailure } from '../platform/errors/temporal-failures';
import { deadline } from '../platform/abort/deadline';
import { isUuid } from '../platform/http/common-patterns';
import { checkFailedJobSettle, checkJobInput } from './authentic-input';
import { checkReportInput, type X402PaymentStore } from '../x402';
import { SCREENING_ERRORS } from './error-codes';
import { countJobEnd } from './job-end-counted';

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
  const countSettled = (status: 'completed' | 'failed', errorCode: string | null, applied: AppliedJobUpdate | null) =>
    countJobEnd(deps.metrics, applied, { status, errorCode });

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
    if (!job?.response || !full)
      throw new AppError(PLATFORM_ERRORS.ANALYSIS_FAILED, 'the settled job has no stored answer');
    return {
      response: job.response as unknown as AnalysisResult['response'],
      full,
      depthReached: full.crawl.depth_reached,
    };
  };

  return {
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
        throw toApplicationFailure(new AppError(SCREENING_ERRORS.INVALID_TARGET, `unsupported chain ${input.chain}`));
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
     * A completed job's charge, history row and mirror write in ONE transaction (src/screening/settle-job.ts): the
     * job's second and last activity (a local activity of screeningWorkflow and of every batch item). Idempotent as
     * a whole: charge key and history key `screening:<request_id>`, the mirror seq-guarded.
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
