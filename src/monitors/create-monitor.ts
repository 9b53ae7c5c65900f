import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { inTransaction } from '../platform/db/transaction';
import { AppError } from '../platform/errors';
import { type Chain, type HoldDeps, type HoldRefusal, reserveJob } from '../screening';
import type { AlertLevel, Monitor, MonitorStore } from './monitors-store';
import { MONITORS_ERRORS } from './error-codes';

export class MonitorLimitReachedError extends AppError {
  constructor(readonly limit: number) {
    super(MONITORS_ERRORS.MONITOR_LIMIT_REACHED, `An account keeps at most ${limit} monitors: delete one first`);
  }
}

export interface CreateMonitorDeps {
  pool: Pool;
  monitors: MonitorStore;
  /** What holds the first job's credits (screening's pricing over billing's ledger). */
  hold: Pick<HoldDeps, 'pool' | 'credits' | 'subscriptions' | 'capabilities'>;
  /** MAX_ACTIVE_MONITORS_PER_ACCOUNT. */
  maxActive: number;
}

export type CreateMonitorOutcome = { kind: 'created' | 'existing'; monitor: Monitor } | HoldRefusal;

/**
 * Creates a monitor paid for and bounded, in ONE transaction serialised per account (a transaction-scoped advisory
 * lock keyed by the user), so concurrent creates are decided one after another:
 * - the live monitor of the same target is answered as it is (`existing`: nothing held, nothing counted);
 * - an account already keeping `maxActive` monitors is refused (MonitorLimitReachedError);
 * - the price of the first job is held under a request id drawn here (hold key = that id, the idempotency key
 *   of the whole first job: the monitor workflow's first re-screen records its job under it and finds the
 *   hold); an account that cannot pay is refused (`insufficient_credits`) and nothing is stored.
 * A deleted monitor counts for nothing, and a new one (a re-create included) always needs a new hold.
 */
export async function createMonitor(
  deps: CreateMonitorDeps,
  m: {
    userId: string;
    chain: Chain;
    address: string;
    referenceId: string | null;
    alertLevel: AlertLevel;
    everyHours: number;
    policyId: string | null;
  },
): Promise<CreateMonitorOutcome> {
  return inTransaction(deps.pool, async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('monitors:' || $1))`, [m.userId]);
    const twin = await deps.monitors.findLiveTwin(client, m);
    if (twin) return { kind: 'existing', monitor: twin };
    if ((await deps.monitors.countLive(client, m.userId)) >= deps.maxActive)
      throw new MonitorLimitReachedError(deps.maxActive);
    const firstRequestId = randomUUID();
    const held = await reserveJob(deps.hold, m.userId, { chain: m.chain, apiType: 'KYA' }, firstRequestId, client);
    if (held.kind !== 'held') return held;
    const monitor = await deps.monitors.insert(client, { ...m, id: randomUUID(), firstRequestId });
    return { kind: 'created', monitor };
  });
}
