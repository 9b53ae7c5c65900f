import type { Pool } from 'pg';
import type { JobOutcome } from './job-load';

/** What Postgres says happened to a user's jobs after a fault, beside what their clients saw. */
export interface JobAudit {
  jobs: number;
  completed: number;
  /** Completed with one ledger charge equal to credits_charged and one history entry. */
  chargedOnce: number;
  /** Never accepted, or accepted and not completed. */
  lost: number;
  /** Ledger charges or history entries beyond one per job. */
  duplicated: number;
  /** Credits still reserved for these jobs (accepted or refused). */
  holdsLeft: number;
  /** Credits the account still has reserved (0 once every job ended). */
  reserved: number;
  /** Ledger charges for jobs the api refused with 503. */
  refusedCharged: number;
  /** The account's balance differs from seed − the charges of its completed jobs. */
  balanceOff: number;
}

/**
 * Reads the mirror, the ledger (idempotency key screening:<request_id>), the history entries and the holds for
 * every job the load submitted. The user must have run no other jobs.
 */
export async function auditJobs(
  pool: Pool,
  user: { id: string; seed: number },
  outcomes: JobOutcome[],
): Promise<JobAudit> {
  const accepted = outcomes.map((o) => o.requestId).filter((id): id is string => id !== null);
  const refused = outcomes.flatMap((o) => o.refused);
  const { rows } = await pool.query<{
    status: string;
    credits_charged: number | null;
    charges: number;
    charged: number;
    history: number;
  }>(
    `SELECT j.status, j.credits_charged,
       (SELECT count(*)::int FROM credit_transactions t WHERE t.idempotency_key = 'screening:' || j.request_id ` +
      `AND t.kind = 'consume') AS charges,
       (SELECT coalesce(sum(amount), 0)::int FROM credit_transactions t WHERE t.idempotency_key = 'screening:' || ` +
      `j.request_id AND t.kind = 'consume') AS charged,
       (SELECT count(*)::int FROM activity_history h WHERE h.idempotency_key = 'screening:' || j.request_id) AS history
     FROM screening_jobs j WHERE j.request_id = ANY($1::uuid[])`,
    [accepted],
  );
  const holds = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM credit_holds WHERE hold_key = ANY($1)',
    [[...accepted, ...refused]],
  );
  const refusedCharges = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM credit_transactions WHERE idempotency_key = ANY($1)`,
    [refused.map((id) => `screening:${id}`)],
  );
  const account = await pool.query<{ balance: number; reserved: number }>(
    'SELECT balance, reserved FROM credit_accounts WHERE user_id = $1',
    [user.id],
  );
  const completed = rows.filter((r) => r.status === 'completed');
  const chargedTotal = completed.reduce((sum, r) => sum + (r.credits_charged ?? 0), 0);
  const balance = account.rows[0]?.balance ?? 0;
  return {
    jobs: outcomes.length,
    completed: completed.length,
    chargedOnce: completed.filter((r) => r.charges === 1 && r.charged === r.credits_charged && r.history === 1).length,
    lost: outcomes.length - completed.length,
    duplicated: rows.reduce((sum, r) => sum + Math.max(0, r.charges - 1) + Math.max(0, r.history - 1), 0),
    holdsLeft: holds.rows[0]?.n ?? 0,
    reserved: account.rows[0]?.reserved ?? 0,
    refusedCharged: refusedCharges.rows[0]?.n ?? 0,
    balanceOff: Math.abs(user.seed - chargedTotal - balance),
  };
}

/** The audit's figures and the promises every job fault makes: all complete, each charged once, nothing held. */
export function requireJobPromises(
  report: { figure(k: string, v: string | number): void; require(ok: boolean, msg: string): void },
  audit: JobAudit,
): void {
  report.figure('jobs', audit.jobs);
  report.figure('completed', audit.completed);
  report.figure('charged-once', audit.chargedOnce);
  report.figure('lost', audit.lost);
  report.figure('duplicated', audit.duplicated);
  report.require(
    audit.completed === audit.jobs,
    `${audit.jobs - audit.completed} of ${audit.jobs} jobs did not complete`,
  );
  report.require(
    audit.chargedOnce === audit.completed,
    `${audit.completed - audit.chargedOnce} completed jobs not charged exactly once (ledger, ` +
      `credits_charged and history disagree)`,
  );
  report.require(audit.duplicated === 0, `${audit.duplicated} duplicate charges or history entries`);
  report.require(
    audit.holdsLeft === 0 && audit.reserved === 0,
    `${audit.holdsLeft} holds left, ${audit.reserved} credits still reserved`,
  );
  report.require(audit.refusedCharged === 0, `${audit.refusedCharged} jobs refused with 503 were charged anyway`);
  report.require(audit.balanceOff === 0, `the balance is off by ${audit.balanceOff} credits from seed − charges`);
}
