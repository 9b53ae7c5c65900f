import type { Pool } from 'pg';
import type { CreditStore, LedgerResult } from '../billing';
import type { HistoryStore } from '../history';
import { inTransaction } from '../platform/db/transaction';
import type { AnalysisResult } from './engine/types';
import type { AppliedJobUpdate, JobStore, JobUpdate } from './jobs-store';
import { jobHistoryEntry } from './job-history-entry';
import type { JobError, ScreeningInput } from './workflow-types';

export interface SettleJobDeps {
  pool: Pool;
  credits: Pick<CreditStore, 'consume' | 'releaseHold'>;
  history: Pick<HistoryStore, 'record'>;
  jobs: Pick<JobStore, 'applyUpdate'>;
}

/** The ledger key of a job's charge: a retried settle finds the first charge and debits nothing more. */
export const jobChargeKey = (requestId: string) => `screening:${requestId}`;

export interface CompletedJobSettlement {
  job: ScreeningInput;
  result: AnalysisResult;
  amount: number;
  /** The mirror write's seq (the workflow's mirrorSeq): a late retry never overwrites a newer write. */
  seq: string;
  runId: string;
}

/**
 * A completed job's charge, history entry and mirror write in ONE transaction: one round trip of the workflow instead
 * of three, and `completed` is visible exactly when the charge and the history entry are (they commit together).
 * Idempotent as a whole: the charge is keyed `screening:<request_id>`, the history entry `screening:<request_id>`
 * (ON CONFLICT DO NOTHING) and the mirror write is seq-guarded, so a retry after a commit whose answer was lost
 * changes nothing. The charge takes the account row lock first, as every ledger write does (no lock-order cycle).
 */
export async function settleCompletedJob(
  deps: SettleJobDeps,
  s: CompletedJobSettlement,
): Promise<{ charged: LedgerResult; applied: AppliedJobUpdate | null; mirrorWrite: JobUpdate }> {
  const mirrorWrite = completedMirrorWrite(s);
  return inTransaction(deps.pool, async (client) => {
    const charged = await deps.credits.consume(
      {
        userId: s.job.userId,
        amount: s.amount,
        idempotencyKey: jobChargeKey(s.job.requestId),
        holdKey: s.job.requestId,
        reason: `screening ${s.job.requestId}`,
        metadata: { requestId: s.job.requestId, depthReached: s.result.depthReached },
      },
      client,
    );
    await deps.history.record(jobHistoryEntry(s.job, s.result), client);
    const applied = await deps.jobs.applyUpdate(mirrorWrite, client);
    return { charged, applied, mirrorWrite };
  });
}

/** The mirror write of a completed job's settle. */
export function completedMirrorWrite(s: CompletedJobSettlement): JobUpdate {
  return {
    requestId: s.job.requestId,
    seq: s.seq,
    runId: s.runId,
    status: 'completed',
    response: s.result.response,
    fullResponse: s.result.full,
    error: null,
    creditsCharged: s.amount,
  };
}

/**
 * What the settle activity answers: whether its mirror write applied, and the write itself. A local activity's input
 * is not in the workflow's history, its result is (in its marker): the queued-job sweeper reads the write from there
 * when it must repair a mirror (src/screening/screening-workflow-starter.ts).
 */
export interface SettledJob {
  applied: boolean;
  mirrorWrite: JobUpdate;
}

export interface FailedJobSettlement {
  requestId: string;
  /** The job's owner and hold, checked before anything is released (src/screening/authentic-input.ts). */
  userId: string;
  creditsHeld: number;
  seq: string;
  runId: string;
  error: JobError;
}

/**
 * A failed job's hold released and its mirror written as failed, in one transaction: nothing is charged. Releasing
 * twice gives back nothing; the mirror write is seq-guarded.
 */
export async function settleFailedJob(
  deps: SettleJobDeps,
  s: FailedJobSettlement,
): Promise<{ released: number; applied: AppliedJobUpdate | null }> {
  return inTransaction(deps.pool, async (client) => {
    const released = await deps.credits.releaseHold(s.requestId, client);
    const applied = await deps.jobs.applyUpdate(failedMirrorWrite(s), client);
    return { released, applied };
  });
}

/** The mirror write of a failed job's settle: nothing charged. */
export function failedMirrorWrite(s: FailedJobSettlement): JobUpdate {
  return {
    requestId: s.requestId,
    seq: s.seq,
    runId: s.runId,
    status: 'failed',
    response: null,
    fullResponse: null,
    error: s.error,
    creditsCharged: 0,
  };
}
