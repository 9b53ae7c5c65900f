import { activityInfo, cancellationSignal, heartbeat } from '@temporalio/activity';
import type { HistoryStore } from '../src/history';
import type { CreditStore } from '../src/billing';
import type { JobStore, JobUpdate } from '../src/screening/jobs-store';
import { isSupportedChain } from '../src/screening/chains/chain';
import type { ScreeningEngine } from '../src/screening/engine/engine';
import type { AnalysisResult } from '../src/screening/engine/types';
import type { ScreeningWorkerMetrics } from '../src/screening/metrics/ports';
import type { Logger } from '../src/platform/logging/logger';
import type { ScreeningInput } from '../src/screening/workflow-types';
import { AppError } from '../src/platform/errors';
import { toApplicationFailure } from '../src/platform/errors/temporal-failures';
import { deadline } from '../src/platform/abort/deadline';

export interface ScreeningActivityDeps {
  engine: ScreeningEngine;
  credits: CreditStore;
  jobs: JobStore;
  history: HistoryStore;
  metrics: ScreeningWorkerMetrics;
  /** Lines written here carry the job's workflowId and httpRequestId (the worker's activity log context). */
  log?: Logger;
}

export function createScreeningActivities(deps: ScreeningActivityDeps) {
  const activities = {
    /**
     * Runs the engine within crawlTimeout. Heartbeats while it works, so a dead worker is noticed after
     * heartbeatTimeout and the analysis is retried on another one. Read-only: retries are harmless.
     */
    async analyzeTarget(input: ScreeningInput): Promise<AnalysisResult> {
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
      if (applied) {
        deps.metrics.jobFinished({
          apiType: applied.apiType,
          chain: applied.chain,
          status: update.status,
          errorCode: update.error?.code ?? null,
          seconds: (applied.completedAt.getTime() - applied.createdAt.getTime()) / 1000,
        });
      }
      return applied !== null;
    },

    /** One activity-history row per completed job, key 'screening:<request_id>' (ON CONFLICT DO NOTHING). */
    async recordScreeningActivity(input: { job: ScreeningInput; result: AnalysisResult }): Promise<string> {
      const { job, result } = input;
      const r = result.response;
      const { id } = await deps.history.record({
        userRef: job.userId,
        idempotencyKey: `screening:${job.requestId}`,
        activityType: job.apiType === 'KYT' ? 'kyt' : 'kya',
        requestId: job.requestId,
        responseId: r.response_id,
        statusCode: 200,
        blockchain: job.chain,
        transactionHash: job.apiType === 'KYT' ? job.target : null,
        address: job.apiType === 'KYA' ? job.target : r.target_summary.address,
        entityId: null,
        entityName: null,
        riskLevel: r.risk_level.toLowerCase() as 'low' | 'medium' | 'high',
        riskScore: r.risk_score,
        requestPayload: {
          chain: job.chain,
          [job.apiType === 'KYT' ? 'txid' : 'address']: job.target,
          crawlTimeout: job.crawlTimeoutMs,
          reference_id: job.referenceId,
        },
        responsePayload: r,
        responseSummary: { risk_level: r.risk_level, risk_score: r.risk_score, risk_reason: r.risk_reason },
        errorMessage: null,
        metadata: { referenceId: job.referenceId },
        clientAppId: null,
        clientAppName: null,
        source: 'screening',
      });
      return id;
    },
  };
  return {
    ...activities,

    /**
     * A batch item's settle in one activity (workflows/screening.ts batchItemScreeningWorkflow): charge, history,
     * mirror, in that order (the mirror last, so `completed` means all is written). Each step is idempotent on its own
     * key, so a retry after any of them repeats nothing.
     */
    async settleCompletedJob(input: {
      job: ScreeningInput;
      result: AnalysisResult;
      amount: number;
      seq: string;
      runId: string;
    }): Promise<boolean> {
      const { job, result, amount } = input;
      await activities.chargeCredits({
        requestId: job.requestId,
        userId: job.userId,
        amount,
        depthReached: result.depthReached,
      });
      await activities.recordScreeningActivity({ job, result });
      return activities.saveJobResult({
        requestId: job.requestId,
        seq: input.seq,
        runId: input.runId,
        status: 'completed',
        response: result.response,
        fullResponse: result.full,
        error: null,
        creditsCharged: amount,
      });
    },
  };
}

export type ScreeningActivities = ReturnType<typeof createScreeningActivities>;
