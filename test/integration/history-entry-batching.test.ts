/**
 * The history store batches the records of concurrent callers into one multi-row INSERT without weakening
 * idempotency: one row per key, each caller told whether its record was new, a refused row failing alone.
 * Real Postgres; the store's pool is wrapped to count the INSERT statements it sends.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createPool } from '../../src/platform/db/pool';
import { createHistoryStore, type HistoryEntry } from '../../src/history/history-store';

/** The pool with a count of the activity INSERT statements sent through it. */
function countingInserts(pool: Pool): { pool: Pool; inserts: () => number } {
  let inserts = 0;
  const query = (...args: Parameters<Pool['query']>) => {
    const [q] = args;
    const text = typeof q === 'string' ? q : (q as { text: string }).text;
    if (/INSERT INTO activity_history/.test(text)) inserts++;
    return (pool.query as (...a: unknown[]) => unknown).apply(pool, args);
  };
  return { pool: Object.assign(Object.create(pool), { query }) as Pool, inserts: () => inserts };
}

const entry = (over: Partial<HistoryEntry> = {}): HistoryEntry => {
  const requestId = randomUUID();
  const userRef = over.userRef ?? 'user_batching';
  return {
    userRef,
    idempotencyKey: `webhook:${userRef}:${requestId}`,
    activityType: 'kyt',
    requestId,
    responseId: null,
    statusCode: 200,
    blockchain: 'ethereum',
    transactionHash: `0x${randomUUID().replace(/-/g, '')}`,
    address: null,
    entityId: null,
    entityName: null,
    riskLevel: 'low',
    riskScore: 5,
    requestPayload: { chain: 'ethereum' },
    responsePayload: { risk_score: 5, note: 'quotes " and \\ backslashes' },
    responseSummary: null,
    errorMessage: null,
    metadata: { batch: true },
    clientAppId: null,
    clientAppName: null,
    source: 'webhook',
    ...over,
  };
};

describe('history: concurrent entries in one INSERT', () => {
  let pool: Pool;
  beforeAll(() => {
    pool = createPool(process.env.TEST_DATABASE_URL as string, 4);
  });
  afterAll(async () => pool.end());

  const rowsFor = async (keys: string[]) =>
    (
      await pool.query<{ id: string; idempotency_key: string; user_id: string | null; response_payload: unknown }>(
        'SELECT id, idempotency_key, user_id, response_payload FROM activity_history WHERE idempotency_key = ANY($1)',
        [keys],
      )
    ).rows;

  test(
    'when 50 records are recorded at once, ' + 'then 50 rows are stored by one INSERT and each caller gets its own',
    async () => {
      // Arrange
      const counted = countingInserts(pool);
      const history = createHistoryStore(counted.pool);
      const entries = Array.from({ length: 50 }, () => entry());

      // Act
      const answers = await Promise.all(entries.map((e) => history.record(e)));

      // Assert
      const rows = await rowsFor(entries.map((e) => e.idempotencyKey));
      const idByKey = new Map(rows.map((r) => [r.idempotency_key, r.id]));
      expect(counted.inserts()).toBe(1);
      expect(rows).toHaveLength(50);
      expect(answers).toEqual(entries.map((e) => ({ id: idByKey.get(e.idempotencyKey), inserted: true })));
      expect(rows[0]?.response_payload).toEqual({ risk_score: 5, note: 'quotes " and \\ backslashes' });
    },
  );

  test(
    'when 20 identical records are recorded at once, ' + 'then one row, one "inserted" and 19 duplicates of it',
    async () => {
      const counted = countingInserts(pool);
      const history = createHistoryStore(counted.pool);
      const same = entry();

      const answers = await Promise.all(Array.from({ length: 20 }, () => history.record({ ...same })));

      const rows = await rowsFor([same.idempotencyKey]);
      expect(rows).toHaveLength(1);
      expect(answers.filter((a) => a.inserted)).toHaveLength(1);
      expect(new Set(answers.map((a) => a.id))).toEqual(new Set([rows[0]?.id]));
      expect(counted.inserts()).toBe(1);
    },
  );

  test(
    'when a batch repeats a key and names one stored before, ' +
      'then each key has one row and the answers say which were new',
    async () => {
      // Arrange
      const history = createHistoryStore(pool);
      const earlier = entry();
      const first = await history.record(earlier);
      const twice = entry();
      const fresh = entry();

      // Act
      const [again, twiceA, twiceB, freshAnswer] = await Promise.all(
        [earlier, twice, { ...twice }, fresh].map((e) => history.record(e)),
      );

      // Assert
      const rows = await rowsFor([earlier, twice, fresh].map((e) => e.idempotencyKey));
      const idOf = (e: HistoryEntry) => rows.find((r) => r.idempotency_key === e.idempotencyKey)?.id;
      expect(rows).toHaveLength(3);
      expect(again).toEqual({ id: first.id, inserted: false });
      expect(twiceA).toEqual({ id: idOf(twice), inserted: true });
      expect(twiceB).toEqual({ id: idOf(twice), inserted: false });
      expect(freshAnswer).toEqual({ id: idOf(fresh), inserted: true });
    },
  );

  test(
    'when one record of a batch breaks a constraint, ' + 'then only its caller fails and the others are stored',
    async () => {
      const history = createHistoryStore(pool);
      const good = Array.from({ length: 4 }, () => entry());
      const bad = entry({ riskScore: 150 });

      const answers = await Promise.allSettled(
        [good[0], good[1], bad, good[2], good[3]].map((e) => history.record(e!)),
      );

      expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      expect((answers[2] as PromiseRejectedResult).reason).toMatchObject({ code: '23514' });
      expect(await rowsFor(good.map((e) => e.idempotencyKey))).toHaveLength(4);
      expect(await rowsFor([bad.idempotencyKey])).toEqual([]);
    },
  );

  test('when two instances record the same keys at once in opposite orders, then one row per key, one "inserted" ' +
    'per key, and neither statement fails (no deadlock, no row-by-row retry)', async () => {
    // Two api processes: a store and a pool each.
    const other = createPool(process.env.TEST_DATABASE_URL as string, 4);
    const counted = [countingInserts(pool), countingInserts(other)];
    try {
      const stores = counted.map((c) => createHistoryStore(c.pool));
      for (let round = 0; round < 20; round++) {
        const entries = Array.from({ length: 60 }, () => entry());
        const reversed = [...entries].reverse().map((e) => ({ ...e }));

        const answers = await Promise.all([
          ...entries.map((e) => stores[0]!.record(e)),
          ...reversed.map((e) => stores[1]!.record(e)),
        ]);

        const rows = await rowsFor(entries.map((e) => e.idempotencyKey));
        expect([round, rows.length]).toEqual([round, 60]);
        expect([round, answers.filter((a) => a.inserted).length]).toEqual([round, 60]);
        expect(new Set(answers.map((a) => a.id))).toEqual(new Set(rows.map((r) => r.id)));
      }
      expect(counted.map((c) => c.inserts())).toEqual([20, 20]);
    } finally {
      await other.end();
    }
  }, 60_000);

  test(
    'when a batch names owners by Clerk id, internal id and an unknown id, ' +
      "then each row gets its owner's id or none",
    async () => {
      const clerkUserId = `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
      const { rows: users } = await pool.query<{ id: string }>(
        `INSERT INTO users (role, clerk_user_id) VALUES ('user', $1), ('user', NULL) RETURNING id`,
        [clerkUserId],
      );
      const history = createHistoryStore(pool);
      const byClerk = entry({ userRef: clerkUserId });
      const byId = entry({ userRef: users[1]!.id });
      const unknown = entry({ userRef: `user_${randomUUID().slice(0, 8)}` });

      await Promise.all([byClerk, byId, unknown].map((e) => history.record(e)));

      const rows = await rowsFor([byClerk, byId, unknown].map((e) => e.idempotencyKey));
      const ownerOf = (e: HistoryEntry) => rows.find((r) => r.idempotency_key === e.idempotencyKey)?.user_id;
      expect([ownerOf(byClerk), ownerOf(byId), ownerOf(unknown)]).toEqual([users[0]!.id, users[1]!.id, null]);
    },
  );

  test("when a record is written inside a caller's transaction that rolls back, then no row remains", async () => {
    const history = createHistoryStore(pool);
    const e = entry();
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const answer = await history.record(e, client);
      const inside = await client.query('SELECT id FROM activity_history WHERE idempotency_key = $1', [
        e.idempotencyKey,
      ]);
      await client.query('ROLLBACK');

      expect(answer.inserted).toBe(true);
      expect(inside.rows).toEqual([{ id: answer.id }]);
      expect(await rowsFor([e.idempotencyKey])).toEqual([]);
    } finally {
      client.release();
    }
  });
});
