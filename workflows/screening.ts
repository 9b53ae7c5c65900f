import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  proxyActivities,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { AnalysisResult } from '../src/screening/engine/types';
import { analysisCost } from '../src/screening/pricing';
import { ErrorType, type JobError, type ScreeningInput, type ScreeningOutcome } from '../src/screening/workflow-types';
import { JobStatusAttr, RiskLevelAttr } from '../src/platform/temporal/search-attributes';

/** Database writes: retried until the database is back, with backoff capped at 30 s. */
const db = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '500ms', maximumInterval: '30s' },
});

/**
 * A mirror write's seq: grows across runs (runStartTime) and within one (history length), so the
 * guarded upsert in the mirror drops any write older than the last one applied.
 */
function mirrorSeq(): number {
  const info = workflowInfo();
  return info.runStartTime.getTime() * 100_000 + info.historyLength;
}

function describeFailure(err: unknown): JobError {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) {
    const code =
      cause.type === ErrorType.TransactionNotFound ? 'TRANSACTION_NOT_FOUND'
      : cause.type === ErrorType.InvalidTarget ? 'INVALID_TARGET'
      : cause.type === ErrorType.InsufficientCredits ? 'INSUFFICIENT_CREDITS'
      : 'CHAIN_UNAVAILABLE';
    return { code, message: cause.message };
  }
  return { code: 'ANALYSIS_FAILED', message: err instanceof Error ? err.message : 'analysis failed' };
}

/**
 * One screening job (id `screening:<request_id>`): analyze → charge (idempotency key = request_id)
 * → activity history → mirror the result. A failed analysis releases the credits held and costs nothing.
 */
export async function screeningWorkflow(input: ScreeningInput): Promise<ScreeningOutcome> {
  const analysis = proxyActivities<Activities>({
    startToCloseTimeout: input.crawlTimeoutMs + 30_000,
    heartbeatTimeout: input.heartbeatTimeoutMs,
    retry: { initialInterval: '1s', maximumInterval: '10s', maximumAttempts: 3, nonRetryableErrorTypes: [ErrorType.InvalidTarget, ErrorType.TransactionNotFound] },
  });

  let result: AnalysisResult;
  try {
    result = await analysis.analyzeTarget(input);
  } catch (err) {
    const error = describeFailure(err);
    // Cleanup must finish even if the workflow is being cancelled: the hold would otherwise stay reserved.
    await CancellationScope.nonCancellable(async () => {
      await db.releaseCredits({ requestId: input.requestId });
      await db.saveJobResult({ requestId: input.requestId, seq: mirrorSeq(), runId: workflowInfo().runId, status: 'failed',
        response: null, fullResponse: null, error, creditsCharged: 0 });
    });
    upsertSearchAttributes([{ key: JobStatusAttr, value: 'failed' }]);
    return { status: 'failed', responseId: null, riskLevel: null, creditsCharged: 0, error };
  }

  // The engine never crawls deeper than the hold pays for; the min() is a second fence.
  const amount = Math.min(analysisCost(result.depthReached), input.creditsHeld);
  await db.chargeCredits({ requestId: input.requestId, userId: input.userId, amount, depthReached: result.depthReached });
  // History before the mirror flips to completed: a client that sees `completed` also finds the history row.
  await db.recordScreeningActivity({ job: input, result });
  await db.saveJobResult({ requestId: input.requestId, seq: mirrorSeq(), runId: workflowInfo().runId, status: 'completed',
    response: result.response, fullResponse: result.full, error: null, creditsCharged: amount });
  upsertSearchAttributes([
    { key: RiskLevelAttr, value: result.response.risk_level },
    { key: JobStatusAttr, value: 'completed' },
  ]);
  return { status: 'completed', responseId: result.response.response_id, riskLevel: result.response.risk_level, creditsCharged: amount, error: null };
}
