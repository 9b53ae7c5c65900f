import type { CreditStore } from '../billing';
import type { AppliedJobUpdate, JobStore, JobUpdate } from './jobs-store';
import type { ScreeningWorkerMetrics } from './metrics/ports';
import type { JobError } from './workflow-types';

/**
 * Every submitted job ends counted once, as completed or failed, by whichever writer ended it: its settle, the
 * queued-job sweeper, or a batch's recovery of an item. Each counts only a write that applied (a retry, or a write a
 * newer one already superseded, changed nothing and counts nothing). One place for the rule, so no writer forgets it.
 */
type Counter = Pick<ScreeningWorkerMetrics, 'jobFinished'> | undefined;

/** Counts a job whose final mirror write applied (`applied` is null when it changed nothing). */
export function countJobEnd(
  metrics: Counter,
  applied: AppliedJobUpdate | null,
  outcome: { status: 'completed' | 'failed'; errorCode: string | null },
): void {
  if (!applied) return;
  metrics?.jobFinished({
    apiType: applied.apiType,
    chain: applied.chain,
    status: outcome.status,
    errorCode: outcome.errorCode,
    seconds: (applied.completedAt.getTime() - applied.createdAt.getTime()) / 1000,
  });
}

/** Applies a final mirror write its workflow scheduled but never landed (seq-guarded), then counts it if it applied. */
export async function applyFinalMirrorWrite(
  deps: { jobs: Pick<JobStore, 'applyUpdate'>; metrics?: Counter },
  update: JobUpdate,
): Promise<AppliedJobUpdate | null> {
  const applied = await deps.jobs.applyUpdate(update);
  countJobEnd(deps.metrics, applied, { status: update.status, errorCode: update.error?.code ?? null });
  return applied;
}

/**
 * A job whose workflow will never settle it: its hold released first (a second release gives back nothing), then
 * the job failed while still queued, with what the ledger shows charged under its charge key, and counted.
 */
export async function releaseAndFailJob(
  deps: {
    jobs: Pick<JobStore, 'markNotStarted'>;
    credits: Pick<CreditStore, 'releaseHold' | 'findTransaction'>;
    metrics?: Counter;
  },
  job: { requestId: string; apiType: string; chain: string; ageMs: number },
  error: JobError,
): Promise<{ failed: boolean; charged: number }> {
  await deps.credits.releaseHold(job.requestId);
  const charge = await deps.credits.findTransaction(`screening:${job.requestId}`);
  const charged = charge?.amount ?? 0;
  const failed = await deps.jobs.markNotStarted(job.requestId, error, charged);
  if (failed)
    deps.metrics?.jobFinished({
      apiType: job.apiType,
      chain: job.chain,
      status: 'failed',
      errorCode: error.code,
      seconds: job.ageMs / 1000,
    });
  return { failed, charged };
}
