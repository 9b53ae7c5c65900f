import type { Pool } from 'pg';
import { startApiServer, type ApiServer } from '../../src/app/api-server';
import { CANDLE_INTERVALS } from '../../src/market/domain/intervals';
import { createPool } from '../../src/platform/db/pool';
import { createLogger } from '../../src/platform/logging/logger';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { until } from '../helpers/until';

/**
 * A candle request spends its account's rate-limit point in the statement that reads the candles (one round trip
 * after authentication, which is cached), and Postgres writes the page's JSON: the same candles as the rows the
 * store reads, counted exactly when two api instances share one budget.
 */
let stack: TestStack;
let otherPool: Pool;
let other: ApiServer;

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  otherPool = createPool(stack.config.DATABASE_URL as string, 8);
  other = await startApiServer({
    config: stack.config,
    pool: otherPool,
    temporal: stack.temporal,
    log: createLogger('silent'),
  });
}, 60_000);
afterAll(async () => {
  await other?.close();
  await otherPool?.end();
  await stack?.stop();
});

async function keyWithLimit(requestsPerMinute: number): Promise<string> {
  const user = await stack.createUser();
  await stack.pool.query(
    `UPDATE api_keys SET rate_limit_tier = 'enterprise', requests_per_minute = $2 WHERE user_id = $1`,
    [user.id, requestsPerMinute],
  );
  return user.key;
}

const get = async (baseUrl: string, path: string, key: string) => {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};

/** The statements the api sent to the pool while `act` ran (no worker runs here: they are the request's). */
async function queriesDuring(act: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const original = stack.pool.query.bind(stack.pool);
  const spy = jest.spyOn(stack.pool, 'query').mockImplementation(((...args: Parameters<typeof original>) => {
    const first = args[0] as unknown;
    seen.push(typeof first === 'string' ? first : String((first as { text?: string }).text));
    return original(...args);
  }) as typeof stack.pool.query);
  try {
    await act();
  } finally {
    spy.mockRestore();
  }
  return seen;
}

const CANDLES = '/api/v1/market-data/candles?symbol=BTC-USD&interval=1h&limit=1000&startTime=1420070400000';

test(
  'when candles are asked for with a cached key, ' + 'then the api sends one statement: the point and the page',
  async () => {
    // Arrange: the key cached. The cache serves only once the api listens for credential changes, which it starts
    // doing as the stack starts: on a slow machine the first request may still find it not listening.
    const key = await keyWithLimit(1000);
    let sent = 0;
    await until('the key served from the cache', async () => {
      sent++;
      const lookups = await queriesDuring(() => get(stack.api.url, CANDLES, key));
      return lookups.every((statement) => !statement.includes('FROM api_keys'));
    });

    // Act
    let answer: Awaited<ReturnType<typeof get>> | undefined;
    const statements = await queriesDuring(async () => {
      answer = await get(stack.api.url, CANDLES, key);
    });

    // Assert
    expect(answer?.status).toBe(200);
    expect(answer?.body.meta).toEqual({ symbol: 'BTC-USD', interval: '1h', total: 1000 });
    expect(answer?.headers.get('ratelimit-remaining')).toBe(String(1000 - sent - 1));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/INSERT INTO rate_limit_counters[\s\S]*FROM market_candles/);
  },
);

test('when a request is over the limit, then it is 429 with the headers and reads no candles', async () => {
  // Arrange
  const key = await keyWithLimit(1);
  expect((await get(stack.api.url, CANDLES, key)).status).toBe(200);

  // Act
  const refused = await get(stack.api.url, CANDLES, key);

  // Assert
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(refused.headers.get('ratelimit-remaining')).toBe('0');
  expect(refused.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
  expect(refused.body).not.toHaveProperty('data');
});

test('when two api instances serve one account at once, then exactly its limit of requests pass', async () => {
  // Arrange
  const key = await keyWithLimit(25);
  const path = '/api/v1/market-data/candles?symbol=BTC-USD&interval=1d&limit=5';

  // Act: 40 requests in flight, half on each instance
  const statuses = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => (await get(i % 2 ? other.url : stack.api.url, path, key)).status),
  );

  // Assert
  expect(statuses.filter((s) => s === 200)).toHaveLength(25);
  expect(statuses.filter((s) => s === 429)).toHaveLength(15);
});

test(
  'when Postgres writes the page, ' + 'then it is the same candles the store reads as rows, for every interval',
  async () => {
    // Arrange
    const symbols = (await stack.stores.market.catalogue()).filter((s) => s.series.length > 0);
    expect(symbols.length).toBeGreaterThan(0);

    for (const { symbol, series } of symbols) {
      for (const interval of CANDLE_INTERVALS.filter((i) => series.some((s) => s.interval === i))) {
        for (const window of [{}, { startTime: 0 }]) {
          const query = { symbol, interval, limit: 1000, ...window };

          // Act
          const page = await stack.stores.market.candlesJson(query);
          const rows = await stack.stores.market.candles(query);

          // Assert
          expect([symbol, interval, page.total]).toEqual([symbol, interval, rows.length]);
          expect(JSON.parse(page.json)).toEqual(rows);
        }
      }
    }
  },
);

test('when a window holds no candles, then the page is an empty array', async () => {
  // Act
  const page = await stack.stores.market.candlesJson({
    symbol: 'BTC-USD',
    interval: '1h',
    startTime: 0,
    endTime: 1,
    limit: 10,
  });

  // Assert
  expect(page).toEqual({ json: '[]', total: 0 });
});
