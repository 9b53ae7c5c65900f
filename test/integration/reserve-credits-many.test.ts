/**
 * reserve_credits_many (src/billing/functions/010_credits.sql), the batch's hold: for every balance, reservation,
 * debt, existing hold and item maxima, it must hold exactly what reserve_credits called once per item in order
 * would, leave the account in the same state, and never promise more than the balance. Then how long 1,000 holds
 * take each way, in one transaction.
 */
import type { Pool, PoolClient } from 'pg';
import { createCreditStore } from '../../src/billing/credits-store';
import { createPool } from '../../src/platform/db/pool';

/** A small deterministic generator: a failing case can be run again from its seed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Case {
  balance: number;
  reserved: number;
  debt: number;
  min: number;
  maxes: number[];
  /** Items (by position) already held before, with their amount. */
  existing: Map<number, number>;
}

function caseOf(seed: number): Case {
  const r = random(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const balance = int(0, 25);
  const count = int(0, 14);
  const existing = new Map<number, number>();
  for (let i = 0; i < count; i++) if (r() < 0.15) existing.set(i, int(1, 3));
  const existingTotal = [...existing.values()].reduce((a, b) => a + b, 0);
  return {
    balance: balance + existingTotal,
    reserved: existingTotal + int(0, Math.floor(balance / 2)),
    debt: r() < 0.1 ? int(1, 5) : 0,
    min: int(1, 2),
    maxes: Array.from({ length: count }, () => int(1, 6)),
    existing,
  };
}

describe('reserve_credits_many', () => {
  let pool: Pool;
  beforeAll(() => {
    pool = createPool(process.env.TEST_DATABASE_URL as string, 4);
  });
  afterAll(async () => pool.end());

  async function account(c: Pick<Case, 'balance' | 'reserved' | 'debt'>, client: PoolClient): Promise<string> {
    const { rows } = await client.query<{ id: string }>(`INSERT INTO users (role) VALUES ('user') RETURNING id`);
    const id = rows[0]?.id as string;
    await client.query('INSERT INTO credit_accounts (user_id, balance, reserved, debt) VALUES ($1, $2, 0, $3)', [
      id,
      c.balance,
      c.debt,
    ]);
    return id;
  }

  /** Sets a case up on a fresh account (existing holds through reserve_credits), keys `<prefix>-<i>`. */
  async function setUp(c: Case, prefix: string, client: PoolClient): Promise<string> {
    const user = await account({ ...c, debt: 0 }, client);
    for (const [i, amount] of c.existing) {
      await client.query('SELECT reserve_credits($1, $2, $3, $3)', [user, `${prefix}-${i}`, amount]);
    }
    const held = [...c.existing.values()].reduce((a, b) => a + b, 0);
    await client.query('UPDATE credit_accounts SET reserved = reserved + $2, debt = $3 WHERE user_id = $1', [
      user,
      c.reserved - held,
      c.debt,
    ]);
    return user;
  }

  async function state(user: string, prefix: string, client: PoolClient) {
    const { rows: a } = await client.query('SELECT balance, reserved, debt FROM credit_accounts WHERE user_id = $1', [
      user,
    ]);
    const { rows: h } = await client.query<{ hold_key: string; amount: string }>(
      'SELECT hold_key, amount FROM credit_holds WHERE user_id = $1 ORDER BY hold_key',
      [user],
    );
    return { account: a[0], holds: h.map((x) => [x.hold_key.slice(prefix.length), Number(x.amount)]) };
  }

  test('when 300 random accounts and batches are held both ways, then holds and accounts are identical', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      for (let seed = 1; seed <= 300; seed++) {
        const c = caseOf(seed);
        const one = `one-${seed}-${Date.now()}`;
        const many = `many-${seed}-${Date.now()}`;
        const [a, b] = [await setUp(c, one, client), await setUp(c, many, client)];
        const sequential: number[] = [];
        for (let i = 0; i < c.maxes.length; i++) {
          const { rows } = await client.query<{ held: string }>('SELECT reserve_credits($1, $2, $3, $4) AS held', [
            a,
            `${one}-${i}`,
            c.min,
            c.maxes[i],
          ]);
          sequential.push(Number(rows[0]?.held));
        }
        const { rows } = await client.query<{ held: string[] }>(
          'SELECT reserve_credits_many($1, $2::text[], $3, $4::bigint[]) AS held',
          [b, c.maxes.map((_, i) => `${many}-${i}`), c.min, c.maxes],
        );
        const together = (rows[0]?.held ?? []).map(Number);
        expect([seed, together]).toEqual([seed, sequential]);
        expect([seed, await state(b, many, client)]).toEqual([seed, await state(a, one, client)]);
        const after = await state(b, many, client);
        expect(Number(after.account.reserved)).toBeLessThanOrEqual(Number(after.account.balance));
      }
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  test('when the same key is given twice, then nothing is held and the call fails', async () => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const user = await account({ balance: 10, reserved: 0, debt: 0 }, client);
      await expect(
        client.query("SELECT reserve_credits_many($1, ARRAY['k', 'k'], 1, ARRAY[1, 1]::bigint[])", [user]),
      ).rejects.toThrow(/distinct/);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  test(
    'when 1,000 items are held in one transaction, ' + 'then one statement does it (timed against row by row)',
    async () => {
      const credits = createCreditStore(pool);
      const timed = async (hold: (user: string, client: PoolClient) => Promise<number[]>) => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const user = await account({ balance: 5_000, reserved: 0, debt: 0 }, client);
          const started = process.hrtime.bigint();
          const held = await hold(user, client);
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          expect(held).toHaveLength(1_000);
          expect(held.every((h) => h === 3)).toBe(true);
          const { rows } = await client.query('SELECT reserved FROM credit_accounts WHERE user_id = $1', [user]);
          expect(Number(rows[0].reserved)).toBe(3_000);
          return ms;
        } finally {
          await client.query('ROLLBACK');
          client.release();
        }
      };
      const keys = (user: string) => Array.from({ length: 1_000 }, (_, i) => `timed-${user}-${i}`);
      const rowByRow = await timed(async (user, client) => {
        const held: number[] = [];
        for (const key of keys(user)) held.push(await credits.reserve(user, key, 1, 3, client));
        return held;
      });
      const setBased = await timed((user, client) =>
        credits.reserveMany(
          user,
          keys(user).map((holdKey) => ({ holdKey, max: 3 })),
          1,
          client,
        ),
      );
      process.stdout.write(
        `reserve-credits-many: 1,000 holds row by row ${rowByRow.toFixed(0)} ms, ` +
          `in one statement ${setBased.toFixed(0)} ms\n`,
      );
      expect(setBased).toBeLessThan(rowByRow);
    },
  );
});
