import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createPool } from '../../src/platform/db/pool';
import { createTieredLimiter, type RateLimitDecision, type TieredLimiter } from '../../src/platform/rate-limit/limiter';
import type { RateLimitPrincipal } from '../../src/platform/rate-limit/tiers';
import { freePort } from '../helpers/anvil';

const freeKey = (): RateLimitPrincipal => ({ key: `account:${randomUUID()}`, tier: 'free' });

async function consumeTimes(
  limiter: TieredLimiter,
  who: RateLimitPrincipal,
  times: number,
): Promise<RateLimitDecision[]> {
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < times; i++) decisions.push(await limiter.consume(who));
  return decisions;
}

describe('tiered limiter on the Postgres store', () => {
  const pools: Pool[] = [];
  const pool = (url: string): Pool => {
    const created = createPool(url, 2);
    pools.push(created);
    return created;
  };
  let instanceA: TieredLimiter;
  let instanceB: TieredLimiter;
  let inspect: Pool;

  beforeAll(() => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set (jest global setup starts Postgres)');
    // Two "api instances": separate pools, separate limiter objects, one table.
    instanceA = createTieredLimiter({ store: 'postgres', pool: pool(url) });
    instanceB = createTieredLimiter({ store: 'postgres', pool: pool(url) });
    inspect = pool(url);
  });
  afterAll(async () => {
    await Promise.all(pools.filter((p) => !p.ended).map((p) => p.end()));
  });

  test(
    'two instances share one counter: 30 through A and ' + '30 through B pass, the 61st through either is denied',
    async () => {
      const who = freeKey();
      const throughA = await consumeTimes(instanceA, who, 30);
      const throughB = await consumeTimes(instanceB, who, 30);

      expect([...throughA, ...throughB].every((d) => d.allowed)).toBe(true);
      // B continues A's count instead of starting its own.
      expect(throughA.map((d) => d.remaining)).toEqual(Array.from({ length: 30 }, (_, i) => 59 - i));
      expect(throughB.map((d) => d.remaining)).toEqual(Array.from({ length: 30 }, (_, i) => 29 - i));

      const sixtyFirstViaA = await instanceA.consume(who);
      expect(sixtyFirstViaA).toMatchObject({ allowed: false, tier: 'free', limit: 60, remaining: 0 });
      expect(sixtyFirstViaA.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(sixtyFirstViaA.resetSeconds).toBeLessThanOrEqual(60);

      const row = await inspect.query<{ points: number; expire: number }>(
        'SELECT points, expire FROM rate_limit_counters WHERE key = $1',
        [`rl:${who.key}`],
      );
      expect(row.rows).toHaveLength(1);
      expect(row.rows[0]?.points).toBe(61);
      // expire is epoch milliseconds at the end of the key's window.
      const msLeft = (row.rows[0]?.expire ?? 0) - Date.now();
      expect(msLeft).toBeGreaterThan(0);
      expect(msLeft).toBeLessThanOrEqual(60_000);

      expect(await instanceB.consume(who)).toMatchObject({ allowed: false, limit: 60, remaining: 0 });
    },
  );

  test('a pro key in the same table is not limited at 61 and keeps its own counter', async () => {
    const who: RateLimitPrincipal = { key: `account:${randomUUID()}`, tier: 'pro' };
    const decisions = [...(await consumeTimes(instanceA, who, 31)), ...(await consumeTimes(instanceB, who, 30))];
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(decisions[60]).toMatchObject({ limit: 300, remaining: 239 });

    const rows = await inspect.query<{ key: string; points: number }>(
      'SELECT key, points FROM rate_limit_counters WHERE key LIKE $1',
      [`%${who.key}`],
    );
    expect(rows.rows).toEqual([{ key: `rl:${who.key}`, points: 61 }]);
  });

  test('requests of one account checked against free, pro and enterprise limits spend its one counter', async () => {
    const key = `account:${randomUUID()}`;
    const decisions = await Promise.all([
      instanceA.consume({ key, tier: 'free' }),
      instanceA.consume({ key, tier: 'pro' }),
      instanceA.consume({ key, tier: 'enterprise', requestsPerMinute: 1000 }),
      instanceA.consume({ key, tier: 'enterprise', requestsPerMinute: 1000 }),
    ]);
    expect(decisions.map((d) => [d.allowed, d.limit])).toEqual([
      [true, 60],
      [true, 300],
      [true, 1000],
      [true, 1000],
    ]);
    // Each decision saw the points spent before it, whatever its limit.
    expect(decisions.map((d) => d.limit - d.remaining).sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
    const rows = await inspect.query<{ key: string; points: number }>(
      'SELECT key, points FROM rate_limit_counters WHERE key LIKE $1 ORDER BY key',
      [`%${key}`],
    );
    expect(rows.rows).toEqual([{ key: `rl:${key}`, points: 4 }]);
  });

  test(
    'with the database unreachable, decisions still come (no throw) ' +
      'and each instance enforces the limit on its own',
    async () => {
      const closedPort = await freePort();
      const unreachable = `postgres://nobody@127.0.0.1:${closedPort}/nothing`;
      const brokenA = createTieredLimiter({ store: 'postgres', pool: pool(unreachable) });
      const brokenB = createTieredLimiter({ store: 'postgres', pool: pool(unreachable) });
      const who = freeKey();

      const decisionsA = await consumeTimes(brokenA, who, 61);
      expect(decisionsA.slice(0, 60).every((d) => d.allowed)).toBe(true);
      expect(decisionsA.slice(0, 60).map((d) => d.remaining)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
      expect(decisionsA[60]).toMatchObject({ allowed: false, limit: 60, remaining: 0 });

      // Per instance: B's fallback counter is its own, so the same key starts afresh there.
      expect(await brokenB.consume(who)).toMatchObject({ allowed: true, limit: 60, remaining: 59 });
    },
  );

  test('with an ended pool, decisions still come from the insurance limiter', async () => {
    const url = process.env.TEST_DATABASE_URL as string;
    const endedPool = pool(url);
    const limiter = createTieredLimiter({ store: 'postgres', pool: endedPool });
    const who = freeKey();
    expect(await limiter.consume(who)).toMatchObject({ allowed: true, remaining: 59 });
    await endedPool.end();

    // The store now fails on every call; the in-process insurance counter starts at zero and still limits.
    const decisions = await consumeTimes(limiter, who, 61);
    expect(decisions.slice(0, 60).every((d) => d.allowed)).toBe(true);
    expect(decisions[0]?.remaining).toBe(59);
    expect(decisions[60]).toMatchObject({ allowed: false, remaining: 0 });

    // The shared counter saw only the one request made before the pool ended.
    const row = await inspect.query<{ points: number }>('SELECT points FROM rate_limit_counters WHERE key = $1', [
      `rl:${who.key}`,
    ]);
    expect(row.rows).toEqual([{ points: 1 }]);
  });
});
