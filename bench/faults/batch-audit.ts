import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { auditJobs, type JobAudit } from './job-audit';
import type { JobOutcome } from './job-load';

/** The batch as its owner reads it (GET /api/v1/kyt/batch/:id?limit=1000). */
export interface BatchAnswer {
  status: string;
  counts: { total: number; invalid: number; refused: number; queued: number; completed: number; failed: number };
  credits: { held: number; charged: number };
  items: { index: number; request_id: string | null; status: string; credits_charged: number | null }[];
}

/** What Postgres and Temporal say happened to a batch's items, beside what its owner reads. */
export interface BatchAudit {
  /** The single-job audit over the accepted items (mirror, ledger, history entries, holds, balance). */
  jobs: JobAudit;
  /** Items in the answer, and the items submitted. */
  items: number;
  submitted: number;
  /** counts.total, and the sum of the counts by status. */
  countsTotal: number;
  countsSum: number;
  /** Items whose status in the answer is not `completed`. */
  notCompleted: number;
  /** credits.charged of the batch, the sum of its items' credits_charged, and the ledger's consume rows' sum. */
  creditsCharged: number;
  itemsCharged: number;
  ledgerCharged: number;
  creditsHeld: number;
  /** Screening workflow executions of the owner: request ids with more than one run, or no run at all. */
  workflowRuns: number;
  requestIdsRunTwice: number;
  requestIdsNeverRun: number;
  /** Runs that did not end COMPLETED, and runs for no item of the batch. */
  runsNotCompleted: number;
  strayRuns: number;
}

/**
 * Every run of a job workflow (`screening:<request id>`, whatever its workflow type) of `userId`, by workflow id:
 * the jobs carry the UserId search attribute.
 */
export async function screeningRunsOf(temporal: Client, userId: string, extra = ''): Promise<Map<string, string[]>> {
  const runs = new Map<string, string[]>();
  for await (const run of temporal.workflow.list({ query: `UserId = "${userId}"${extra}` })) {
    if (!run.workflowId.startsWith('screening:')) continue;
    runs.set(run.workflowId, [...(runs.get(run.workflowId) ?? []), run.status.name]);
  }
  return runs;
}

/**
 * Audits a batch whose owner ran nothing else: every item of the answer against the jobs' mirror, the ledger
 * (idempotency key screening:<request_id>), the history entries, the holds, the balance (auditJobs), the batch's own
 * counts and credits, and the owner's screening workflow runs in Temporal (one per request id, each completed).
 */
export async function auditBatch(
  pool: Pool,
  temporal: Client,
  user: { id: string; seed: number },
  submitted: number,
  answer: BatchAnswer,
): Promise<BatchAudit> {
  const accepted = answer.items.flatMap((i) => (i.request_id ? [i.request_id] : []));
  const outcomes: JobOutcome[] = accepted.map((requestId) => ({
    requestId,
    status: 'completed',
    refused: [],
    transientErrors: 0,
    ms: 0,
  }));
  const jobs = await auditJobs(pool, user, outcomes);
  const ledger = await pool.query<{ amount: number }>(
    `SELECT coalesce(sum(amount), 0)::int AS amount FROM credit_transactions
     WHERE idempotency_key = ANY($1) AND kind = 'consume'`,
    [accepted.map((id) => `screening:${id}`)],
  );
  const runs = await screeningRunsOf(temporal, user.id);
  const wanted = new Set(accepted.map((id) => `screening:${id}`));
  const all = [...runs.values()].flat();
  const c = answer.counts;
  return {
    jobs,
    items: answer.items.length,
    submitted,
    countsTotal: c.total,
    countsSum: c.invalid + c.refused + c.queued + c.completed + c.failed,
    notCompleted: answer.items.filter((i) => i.status !== 'completed').length,
    creditsCharged: answer.credits.charged,
    itemsCharged: answer.items.reduce((sum, i) => sum + (i.credits_charged ?? 0), 0),
    ledgerCharged: ledger.rows[0]?.amount ?? 0,
    creditsHeld: answer.credits.held,
    workflowRuns: all.length,
    requestIdsRunTwice: [...wanted].filter((id) => (runs.get(id)?.length ?? 0) > 1).length,
    requestIdsNeverRun: [...wanted].filter((id) => !runs.has(id)).length,
    runsNotCompleted: all.filter((s) => s !== 'COMPLETED').length,
    strayRuns: [...runs.keys()].filter((id) => !wanted.has(id)).length,
  };
}

/** The promises a batch makes through any fault: every item completed once, paid once, counted once. */
export function requireBatchPromises(
  report: { figure(k: string, v: string | number): void; require(ok: boolean, msg: string): void },
  audit: BatchAudit,
): void {
  const { jobs } = audit;
  report.figure('items', audit.submitted);
  report.figure('completed', jobs.completed);
  report.figure('charged-once', jobs.chargedOnce);
  report.figure('lost', jobs.lost + (audit.submitted - audit.items));
  report.figure('duplicated', jobs.duplicated + audit.requestIdsRunTwice);
  report.figure('workflow-runs', audit.workflowRuns);
  report.figure('credits', `${audit.creditsCharged}/${audit.ledgerCharged}`);
  report.require(
    audit.items === audit.submitted && audit.countsTotal === audit.submitted && audit.countsSum === audit.submitted,
    `${audit.submitted} items submitted, the batch lists ${audit.items}, counts.total ${audit.countsTotal}, ` +
      `the counts add up to ${audit.countsSum}`,
  );
  report.require(audit.notCompleted === 0, `${audit.notCompleted} items of the batch did not end completed`);
  report.require(
    jobs.completed === jobs.jobs && jobs.jobs === audit.submitted,
    `${jobs.completed} of ${audit.submitted} items' jobs completed (${jobs.jobs} accepted)`,
  );
  report.require(
    jobs.chargedOnce === jobs.completed,
    `${jobs.completed - jobs.chargedOnce} completed items not charged exactly once (ledger, credits_charged and ` +
      'history disagree)',
  );
  report.require(jobs.duplicated === 0, `${jobs.duplicated} duplicate charges or history entries`);
  report.require(
    audit.requestIdsRunTwice === 0 && audit.requestIdsNeverRun === 0 && audit.strayRuns === 0,
    `screening workflows: ${audit.requestIdsRunTwice} request ids ran more than once, ${audit.requestIdsNeverRun} ` +
      `never ran, ${audit.strayRuns} runs for no item`,
  );
  report.require(audit.runsNotCompleted === 0, `${audit.runsNotCompleted} screening runs did not end COMPLETED`);
  report.require(
    audit.creditsCharged === audit.itemsCharged && audit.itemsCharged === audit.ledgerCharged,
    `credits charged: batch ${audit.creditsCharged}, items ${audit.itemsCharged}, ledger ${audit.ledgerCharged}`,
  );
  report.require(
    audit.creditsHeld === 0 && jobs.holdsLeft === 0 && jobs.reserved === 0,
    `the batch still holds ${audit.creditsHeld}; ${jobs.holdsLeft} holds left, ${jobs.reserved} credits reserved`,
  );
  report.require(jobs.balanceOff === 0, `the balance is off by ${jobs.balanceOff} credits from seed − charges`);
}
