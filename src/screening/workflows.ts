/** Screening workflows: one per job, and the sweep of jobs left queued. Deterministic code only. */
import {
  CancellationScope,
  patched,
  proxyActivities,
  proxyLocalActivities,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { BatchActivities } from '../batches/workflow-types';
import type { CaseActivities } from '../cases/workflow-types';
import type { BatchSweepSummary } from '../batches/workflow-types';
import type { ScreeningActivities } from './activities';
import type { QueuedJobActivities } from './sweeper-activities';
import { describeFailure, failureCode } from '../platform/errors/temporal-failures';
import { SCREENING_ERRORS } from './error-codes';
import { JobStatusAttr, RiskLevelAttr } from '../platform/temporal/search-attributes';
import type { AnalysisResult } from './engine/types';
import { jobCost } from './pricing';
import type { QueuedJobSweepSummary, ScreeningInput, ScreeningOutcome } from './workflow-types';

/** Database writes: retried until the database is back, with backoff capped at 30 s. */
const dbRetry = { startToCloseTimeout: '30s', retry: { initialInterval: '500ms', maximumInterval: '30s' } } as const;
const db = proxyActivities<ScreeningActivities>(dbRetry);
/**
 * The completed job's settle, as a local activity: run by the worker inside the workflow task that follows the
 * analysis, so the job completes in that same task (a marker in the history instead of an activity's three events
 * and one more workflow task). It is one short transaction, idempotent as a whole, so running it again after a lost
 * worker (the task is retried elsewhere) repeats nothing.
 */
const localDb = proxyLocalActivities<ScreeningActivities>(dbRetry);

/**
 * The case an alerting job opens or joins (src/cases): a local activity after the settle. Bounded retries: a case
 * that cannot be reached must not keep the job's workflow open (the activity logs what it could not record).
 */
const caseAlerts = proxyLocalActivities<CaseActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '500ms', maximumInterval: '30s', maximumAttempts: 20 },
});

/**
 * An answer that may alert: the policy's verdict is review (MEDIUM) or block (HIGH), or a KYT has sanctioned
 * exposure. The activity reads the stored answer and decides; this only spares the other jobs a round trip.
 */
function mayAlert(result: AnalysisResult): boolean {
  const response = result.response as {
    risk_level: string;
    api_type?: string;
    rule_scores?: { is_sanctioned?: number };
  };
  return response.risk_level !== 'LOW' || (response.rule_scores?.is_sanctioned ?? 0) > 0 || response.api_type === 'KYT';
}

async function openCaseIfAlerting(input: ScreeningInput, result: AnalysisResult): Promise<void> {
  if (!mayAlert(result)) return;
  await caseAlerts.openCaseForJob({ requestId: input.requestId, userId: input.userId }).catch(() => undefined);
}

/**
 * A mirror write's seq: grows across runs (runStartTime) and within one (history length), so the
 * guarded upsert in the mirror drops any write older than the last one applied. About 1.7e17, past 2^53: as a
 * JS number it would round to a multiple of 32 (two writes of one run would tie), so it is computed as a bigint
 * and sent as its decimal digits.
 */
function mirrorSeq(): string {
  const info = workflowInfo();
  return (BigInt(info.runStartTime.getTime()) * BigInt(100_000) + BigInt(info.historyLength)).toString();
}

/**
 * A failed analysis: the hold released and the mirror written as failed, even while the workflow is cancelled.
 * Not when the analysis refused the input as not the api's (INPUT_NOT_AUTHENTIC, e.g. a workflow started by hand
 * with another user's request id): the hold and the job are someone else's, so nothing is touched and the workflow
 * fails with that code.
 */
async function failJob(input: ScreeningInput, err: unknown): Promise<ScreeningOutcome> {
  if (failureCode(err) === SCREENING_ERRORS.INPUT_NOT_AUTHENTIC.code) throw err;
  const error = describeFailure(err);
  // Cleanup must finish even if the workflow is being cancelled: the hold would otherwise stay reserved.
  await CancellationScope.nonCancellable(async () => {
    // The owner and hold go with it: the settle checks them before it releases anything.
    await db.settleFailedJob({
      requestId: input.requestId,
      userId: input.userId,
      creditsHeld: input.creditsHeld,
      seq: mirrorSeq(),
      runId: workflowInfo().runId,
      error,
    });
  });
  upsertSearchAttributes([{ key: JobStatusAttr, value: 'failed' }]);
  return { status: 'failed', responseId: null, riskLevel: null, creditsCharged: 0, error };
}

/** A settled job: its search attributes say completed and its risk level, and the outcome names what it charged. */
function completed(result: AnalysisResult, amount: number): ScreeningOutcome {
  upsertSearchAttributes([
    { key: RiskLevelAttr, value: result.response.risk_level },
    { key: JobStatusAttr, value: 'completed' },
  ]);
  return {
    status: 'completed',
    responseId: result.response.response_id,
    riskLevel: result.response.risk_level,
    creditsCharged: amount,
    error: null,
  };
}

/** The analysis as an ordinary activity: what jobs started before ANALYSIS_AS_LOCAL_ACTIVITY replay. */
const analysisActivities = (input: ScreeningInput) =>
  proxyActivities<ScreeningActivities>({
    startToCloseTimeout: input.crawlTimeoutMs + 30_000,
    heartbeatTimeout: input.heartbeatTimeoutMs,
    retry: { initialInterval: '1s', maximumInterval: '10s', maximumAttempts: 3 },
  });

/**
 * The analysis as a local activity, run by the worker inside the workflow task (a marker in the history instead of
 * an activity's three events and one more workflow task). A crawl longer than the workflow task timeout is kept
 * alive by the SDK, which heartbeats the workflow task; a lost worker's task times out (10 s, as the heartbeat did)
 * and is retried on another worker, which replays and runs the analysis again (it is read-only).
 */
const localAnalysis = (input: ScreeningInput) =>
  proxyLocalActivities<ScreeningActivities>({
    startToCloseTimeout: input.crawlTimeoutMs + 30_000,
    retry: { initialInterval: '1s', maximumInterval: '10s', maximumAttempts: 3 },
  });

/**
 * Jobs started after this patch run their analysis as a local activity (P1 in docs/benchmarks.md); a job started
 * before it replays its recorded activity.
 */
const ANALYSIS_AS_LOCAL_ACTIVITY = 'screening-analysis-as-local-activity';

/**
 * One screening job (id `screening:<request_id>`): analyze, then settle: charge (idempotency key
 * `screening:<request_id>`), activity history and the mirror's `completed` in one transaction (one local activity),
 * so a client that sees `completed` also finds the charge and the history row. A failed analysis releases the credits
 * held and costs nothing. Failures keep the code their activity gave them (src/platform/errors); anything else is
 * ANALYSIS_FAILED. Both steps are local activities (localAnalysis). The analysis first checks the input against the
 * job's hold and row (src/screening/authentic-input.ts): an input the api never produced (a workflow started by hand)
 * fails the workflow with INPUT_NOT_AUTHENTIC, having analysed, charged and released nothing.
 */
export async function screeningWorkflow(input: ScreeningInput): Promise<ScreeningOutcome> {
  // Retryability is decided by the activity's failure (an AppError's own flag), not listed here.
  const analysis = patched(ANALYSIS_AS_LOCAL_ACTIVITY) ? localAnalysis(input) : analysisActivities(input);
  return analyseThenSettle(input, analysis.analyzeTarget);
}

/**
 * One item of a batch (id `screening:<request_id>`, a child of `batch:<batch_id>`): the same job as
 * screeningWorkflow, run lean because the batch already did the per-request work (validation, hold, row). Its two
 * steps are local activities, run in the worker within the workflow task (a marker each in the history instead of
 * three events and a workflow task each: the Temporal server, not the work, bounds a batch of list-only items):
 * analyze (read-only, three attempts like a job's), then one settle that charges (key `screening:<request_id>`),
 * records the history row (key `screening:<request_id>`) and writes the mirror (seq-guarded), retried until the
 * database answers. A worker lost mid-item replays the workflow elsewhere and runs the step again: every write is
 * idempotent. A failed analysis costs nothing, as for a single job.
 */
export async function batchItemScreeningWorkflow(input: ScreeningInput): Promise<ScreeningOutcome> {
  return analyseThenSettle(input, localAnalysis(input).analyzeTarget);
}

/**
 * A job's steps after its analysis is dispatched (as an activity or a local activity): a failure fails the job; a
 * result is settled in one transaction, then opens or joins its case when it alerts.
 */
async function analyseThenSettle(
  input: ScreeningInput,
  analyzeTarget: (input: ScreeningInput) => Promise<AnalysisResult>,
): Promise<ScreeningOutcome> {
  let result: AnalysisResult;
  try {
    result = await analyzeTarget(input);
  } catch (err) {
    return failJob(input, err);
  }
  // The engine never crawls deeper than the hold pays for; the min() is a second fence.
  const amount = Math.min(jobCost(result.depthReached), input.creditsHeld);
  await localDb.settleCompletedJob({ job: input, result, amount, seq: mirrorSeq(), runId: workflowInfo().runId });
  await openCaseIfAlerting(input, result);
  return completed(result, amount);
}

const sweepOptions = {
  startToCloseTimeout: '5m',
  heartbeatTimeout: '30s',
  retry: { initialInterval: '5s', maximumInterval: '30s', maximumAttempts: 5 },
} as const;
const { sweepQueuedJobs } = proxyActivities<QueuedJobActivities>(sweepOptions);
const { sweepStalledBatches } = proxyActivities<BatchActivities>(sweepOptions);

/**
 * One sweep of jobs left `queued` (run by the schedule `queued-job-sweeper:<task queue>`): the result in the
 * Temporal UI says how many were started, running, released, repaired or left for an operator. Its thresholds are
 * the worker's config (the activity reads them): anyone who can start a workflow could otherwise ask it to
 * release every queued job. It also starts the workflow of each batch left without one (a batch's own items are its
 * workflow's, never this sweep's). An argument (anyone who can start a workflow may pass one) is ignored.
 */
export async function queuedJobSweeperWorkflow(_ignored?: unknown): Promise<QueuedJobSweepSummary & BatchSweepSummary> {
  const summary = await sweepQueuedJobs();
  // Then the batches whose workflow is not running (src/batches/batch-sweep.ts).
  return { ...summary, ...(await sweepStalledBatches()) };
}
