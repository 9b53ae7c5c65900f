/**
 * Creating a monitor that already exists finds the twin with a second statement. If the twin is deleted in between
 * (the owner deletes it while a duplicate create is in flight), there is nothing to find: the create must then make
 * the monitor, not fail with a 500. The interleaving is forced: the delete commits right after the create's insert
 * met the twin, on real Postgres.
 */
import type { Pool, QueryResult } from 'pg';
import { createPool } from '../../src/platform/db/pool';
import { createMonitorStore } from '../../src/monitors/monitors-store';

const ADDRESS = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';

describe('a monitor create racing the twin delete', () => {
  let pool: Pool;

  beforeAll(() => {
    pool = createPool(process.env.TEST_DATABASE_URL as string, 4);
  });
  afterAll(async () => {
    await pool.end();
  });

  /** The real pool, except that `between` runs once right after an insert into monitors that inserted nothing. */
  function interleaving(between: () => Promise<void>): Pool {
    let done = false;
    const query = async (text: unknown, values?: unknown[]) => {
      const result = (await pool.query(text as string, values)) as QueryResult;
      if (!done && typeof text === 'string' && text.includes('INSERT INTO monitors') && result.rowCount === 0) {
        done = true;
        await between();
      }
      return result;
    };
    return new Proxy(pool, { get: (target, name) => (name === 'query' ? query : Reflect.get(target, name)) });
  }

  test('the create makes the monitor instead of failing; one live monitor remains', async () => {
    const { rows } = await pool.query<{ id: string }>(`INSERT INTO users (role) VALUES ('user') RETURNING id`);
    const userId = (rows[0] as { id: string }).id;
    const request = {
      userId,
      chain: 'ethereum',
      address: ADDRESS,
      referenceId: null,
      alertLevel: 'MEDIUM' as const,
      everyHours: 24,
      policyId: null,
    };
    const plain = createMonitorStore(pool);
    const first = await plain.create(request);
    expect(first.created).toBe(true);

    const racing = createMonitorStore(
      interleaving(async () => {
        expect(await plain.delete(first.monitor.id, userId)).toBe(true);
      }),
    );
    const second = await racing.create(request);

    expect(second.created).toBe(true);
    expect(second.monitor.id).not.toBe(first.monitor.id);
    const live = await pool.query(`SELECT id FROM monitors WHERE user_id = $1 AND status <> 'deleted'`, [userId]);
    expect(live.rows.map((r) => r.id)).toEqual([second.monitor.id]);
  });
});
