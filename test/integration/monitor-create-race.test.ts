/**
 * The races a monitor's create and delete run, forced on real Postgres:
 * - a create while the twin's delete is in flight answers the twin or makes a new monitor, never fails, and one live
 *   monitor at most remains;
 * - a delete while the first re-screen's prepare records its job (the monitor's row locked FOR SHARE) waits for it,
 *   then keeps the hold for the recorded job; a delete that comes first releases the hold, and the prepare then finds
 *   the monitor deleted. The first screening's hold is never both kept and released, nor leaked.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { createStores, type Stores } from '../helpers/stores';
import { createMonitor } from '../../src/monitors/create-monitor';
import { createMonitorStore, type MonitorStore } from '../../src/monitors/monitors-store';
import { createPool } from '../../src/platform/db/pool';
import { inTransaction } from '../../src/platform/db/transaction';
import { holdAndRecordOnce } from '../../src/screening';
import { capabilitiesFor } from '../../src/screening/engine/capabilities';

let pool: Pool;
let stores: Stores;
let monitors: MonitorStore;

beforeAll(() => {
  pool = createPool(process.env.TEST_DATABASE_URL as string, 6);
  stores = createStores(pool);
  monitors = createMonitorStore(pool);
});
afterAll(async () => {
  await pool.end();
});

const hold = () => ({
  pool,
  credits: stores.credits,
  subscriptions: stores.subscriptions,
  capabilities: capabilitiesFor([]),
});
const anAddress = () => `0x${randomBytes(20).toString('hex')}`;

async function userWithCredits(credits: number): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(`INSERT INTO users (role) VALUES ('user') RETURNING id`);
  const userId = (rows[0] as { id: string }).id;
  await stores.credits.grant({
    userId,
    amount: credits,
    idempotencyKey: `race:${userId}`,
    reason: 'test',
    source: 'test',
  });
  return userId;
}

const request = (userId: string, address: string) => ({
  userId,
  chain: 'ethereum' as const,
  address,
  referenceId: null,
  alertLevel: 'MEDIUM' as const,
  everyHours: 24,
  policyId: null,
});

async function holdsOf(userId: string) {
  const { rows } = await pool.query(
    `SELECT (SELECT count(*) FROM credit_holds WHERE user_id = $1)::int AS holds,
            (SELECT reserved FROM credit_accounts WHERE user_id = $1)::int AS reserved,
            (SELECT count(*) FROM screening_jobs WHERE user_id = $1)::int AS jobs`,
    [userId],
  );
  return rows[0];
}

/** Runs `inside` in a transaction that holds `monitorId`'s row as a delete would (UPDATE, not committed yet). */
async function whileDeleting(monitorId: string, inside: () => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`UPDATE monitors SET status = 'deleted', deleted_at = now() WHERE id = $1`, [monitorId]);
    await inside();
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

describe('monitor create and delete races', () => {
  test('a create while the twin is being deleted answers the twin, never fails; one live monitor remains', async () => {
    const userId = await userWithCredits(5);
    const address = anAddress();
    const first = await createMonitor({ pool, monitors, hold: hold(), maxActive: 10 }, request(userId, address));
    expect(first.kind).toBe('created');
    if (first.kind !== 'created') return;

    let during: Awaited<ReturnType<typeof createMonitor>> | undefined;
    await whileDeleting(first.monitor.id, async () => {
      during = await createMonitor({ pool, monitors, hold: hold(), maxActive: 10 }, request(userId, address));
    });
    // The delete had not committed: the twin was still the live monitor of the target.
    expect(during).toMatchObject({ kind: 'existing', monitor: { id: first.monitor.id } });
    const after = await createMonitor({ pool, monitors, hold: hold(), maxActive: 10 }, request(userId, address));
    expect(after.kind).toBe('created');
    const live = await pool.query(`SELECT id FROM monitors WHERE user_id = $1 AND status <> 'deleted'`, [userId]);
    expect(live.rows).toHaveLength(1);
  });

  test(
    "a delete during the first re-screen's prepare waits, then keeps the hold for the recorded job; a delete " +
      'before it releases the hold and the prepare records nothing',
    async () => {
      const userId = await userWithCredits(5);
      const made = await createMonitor({ pool, monitors, hold: hold(), maxActive: 10 }, request(userId, anAddress()));
      if (made.kind !== 'created') throw new Error(`not created: ${made.kind}`);
      const { id, firstRequestId } = made.monitor;
      expect(await holdsOf(userId)).toEqual({ holds: 1, reserved: 1, jobs: 0 });

      // The prepare holds the row (FOR SHARE) while it records the job; the delete waits for its commit.
      let deleted: Promise<boolean> | undefined;
      await inTransaction(pool, async (client) => {
        const locked = await monitors.lockForRescreen(client, id);
        expect(locked?.status).toBe('active');
        let settled = false;
        deleted = monitors.delete(id, userId).finally(() => {
          settled = true;
        });
        await new Promise((r) => setTimeout(r, 300));
        expect(settled).toBe(false);
        const held = await holdAndRecordOnce(
          { ...hold(), jobs: stores.jobs, heartbeatTimeoutMs: 30_000 },
          userId,
          {
            apiType: 'KYA',
            chain: 'ethereum',
            target: made.monitor.address,
            crawlTimeoutMs: 10_000,
            referenceId: null,
          },
          firstRequestId as string,
          null,
          client,
        );
        expect(held.kind).toBe('held');
      });
      expect(await deleted).toBe(true);
      // The job was recorded first: its hold stays for its own screening to charge or release.
      expect(await holdsOf(userId)).toEqual({ holds: 1, reserved: 1, jobs: 1 });
      // Nothing will run that job here: it ends as the sweeper would end it (the shared database's sweeper test
      // must not find it queued).
      await stores.credits.releaseHold(firstRequestId as string);
      await pool.query(
        `UPDATE screening_jobs SET status = 'failed', completed_at = now(),
           error = '{"code":"NOT_STARTED","message":"test: never run"}' WHERE request_id = $1`,
        [firstRequestId],
      );

      // The other order: a delete first releases the hold; the prepare then finds the monitor deleted.
      const second = await createMonitor({ pool, monitors, hold: hold(), maxActive: 10 }, request(userId, anAddress()));
      if (second.kind !== 'created') throw new Error(`not created: ${second.kind}`);
      expect(await holdsOf(userId)).toMatchObject({ holds: 1, reserved: 1 });
      expect(await monitors.delete(second.monitor.id, userId)).toBe(true);
      expect(await holdsOf(userId)).toEqual({ holds: 0, reserved: 0, jobs: 1 });
      const seen = await inTransaction(pool, (client) => monitors.lockForRescreen(client, second.monitor.id));
      expect(seen?.status).toBe('deleted');
    },
  );
});
