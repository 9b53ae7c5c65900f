import { randomUUID } from 'node:crypto';
import { createPool } from '../../src/platform/db/pool';
import { createLogger } from '../../src/platform/logging/logger';
import { startApiServer, type ApiServer } from '../../src/app/api-server';
import { createTestSigner } from '../helpers/jwt';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { recordSecret } from '../helpers/run-log';

/**
 * Per-account limits on market data, counted in Postgres (rate-limiter-flexible's store) so every api
 * instance and every key of the account share one budget; each request is checked against its key's
 * tier: free 60, pro 300, enterprise its own figure, per minute.
 */
let stack: TestStack;
let admin: { id: string; key: string };
const CANDLES = '/api/v1/market-data/candles?symbol=ALGO-USDT&interval=1d&limit=1';

async function get(baseUrl: string, path: string, key: string) {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

async function keyWithTier(tier: 'free' | 'pro' | 'enterprise', requestsPerMinute?: number): Promise<string> {
  const user = await stack.createUser();
  if (tier !== 'free') {
    const keys = await stack.http('GET', '/api/v1/api-keys', { key: user.key });
    const res = await stack.http('PUT', `/api/v1/api-keys/${keys.body.data[0].id}/rate-limit`, {
      key: admin.key,
      body: { tier, requestsPerMinute },
    });
    expect(res.status).toBe(200);
  }
  return user.key;
}

const signer = createTestSigner();

beforeAll(async () => {
  stack = await startTestStack({ worker: false, env: { CLERK_JWT_KEY: signer.publicKeyPem } });
  admin = await stack.createUser({ role: 'admin' });
}, 60_000);
afterAll(async () => stack?.stop());

test('a free key gets 429 with Retry-After on its 61st request in a minute, while a pro key does not', async () => {
  const free = await keyWithTier('free');
  const pro = await keyWithTier('pro');
  for (let i = 1; i <= 60; i++) {
    const res = await get(stack.api.url, CANDLES, free);
    expect([i, res.status, res.headers.get('ratelimit-remaining')]).toEqual([i, 200, String(60 - i)]);
    expect(res.headers.get('ratelimit-limit')).toBe('60');
    expect(res.headers.get('ratelimit-policy')).toBe('60;w=60');
  }
  const limited = await get(stack.api.url, CANDLES, free);
  expect(limited.status).toBe(429);
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
  expect(limited.headers.get('ratelimit-remaining')).toBe('0');
  expect(limited.body.error).toMatchObject({
    code: 'RATE_LIMITED',
    details: { tier: 'free', limit: 60, windowSeconds: 60, retryAfterSeconds: retryAfter },
  });

  for (let i = 1; i <= 61; i++) expect((await get(stack.api.url, CANDLES, pro)).status).toBe(200);
  const sixtySecond = await get(stack.api.url, CANDLES, pro);
  expect([
    sixtySecond.status,
    sixtySecond.headers.get('ratelimit-limit'),
    sixtySecond.headers.get('ratelimit-remaining'),
  ]).toEqual([200, '300', '238']);
  // …and the free key stays limited meanwhile.
  expect((await get(stack.api.url, CANDLES, free)).status).toBe(429);
}, 60_000);

test('a pro key is limited at 300, an enterprise key at its own figure', async () => {
  const pro = await keyWithTier('pro');
  const statuses: number[] = [];
  for (let i = 1; i <= 301; i++) statuses.push((await get(stack.api.url, CANDLES, pro)).status);
  expect(statuses.slice(0, 300).every((s) => s === 200)).toBe(true);
  expect(statuses[300]).toBe(429);

  const enterprise = await keyWithTier('enterprise', 5);
  const e: number[] = [];
  for (let i = 1; i <= 6; i++) e.push((await get(stack.api.url, CANDLES, enterprise)).status);
  expect(e).toEqual([200, 200, 200, 200, 200, 429]);
}, 60_000);

test(
  'every answer carries the RateLimit headers: 400s, ' + '404s, capabilities and query too, each one counted',
  async () => {
    const key = await keyWithTier('free');
    const bad = await get(stack.api.url, '/api/v1/market-data/candles?symbol=ALGO-USDT&interval=2h', key);
    expect([bad.status, bad.headers.get('ratelimit-remaining')]).toEqual([400, '59']);
    const unknown = await get(stack.api.url, '/api/v1/market-data/candles?symbol=DOGE-USD&interval=1h', key);
    expect([unknown.status, unknown.headers.get('ratelimit-remaining')]).toEqual([404, '58']);
    const caps = await get(stack.api.url, '/api/v1/capabilities', key);
    expect([
      caps.status,
      caps.headers.get('ratelimit-remaining'),
      caps.headers.get('ratelimit-reset') !== null,
    ]).toEqual([200, '57', true]);
    const res = await fetch(`${stack.api.url}/api/v1/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ connector: 'kraken', dataType: 'ticker', filters: { symbol: 'BTC-USD' } }),
    });
    expect([res.status, res.headers.get('ratelimit-remaining')]).toEqual([200, '56']);
  },
);

test('two api instances share one budget per account (the counter lives in Postgres)', async () => {
  const key = await keyWithTier('free');
  const pool = createPool(stack.config.DATABASE_URL as string, 4);
  let second: ApiServer | undefined;
  try {
    second = await startApiServer({
      config: stack.config,
      pool,
      temporal: stack.temporal,
      log: createLogger('silent'),
    });
    for (let i = 0; i < 30; i++) expect((await get(stack.api.url, CANDLES, key)).status).toBe(200);
    for (let i = 0; i < 30; i++) expect((await get(second.url, CANDLES, key)).status).toBe(200);
    expect((await get(stack.api.url, CANDLES, key)).status).toBe(429);
    expect((await get(second.url, CANDLES, key)).status).toBe(429);
  } finally {
    await second?.close();
    await pool.end();
  }
}, 60_000);

test('limits apply to market data only: the job API is not counted against them', async () => {
  const key = await keyWithTier('enterprise', 1);
  expect((await get(stack.api.url, CANDLES, key)).status).toBe(200);
  expect((await get(stack.api.url, CANDLES, key)).status).toBe(429);
  const me = await get(stack.api.url, '/api/v1/me', key);
  expect(me.status).toBe(200);
  expect(me.headers.get('ratelimit-limit')).toBeNull();
});

test(
  'requests without a valid key count against their address: ' +
    'the 401 carries the headers, and guessing on gets 429',
  async () => {
    // Every test file calls from 127.0.0.1 into one database: start from a fresh window, and leave one behind.
    const forgetAddress = () => stack.pool.query(`DELETE FROM rate_limit_counters WHERE key LIKE '%:failed-auth'`);
    await forgetAddress();
    try {
      const guess = () => get(stack.api.url, CANDLES, 'csk_live_guessed_key_0000000000000000');
      for (let i = 59; i >= 0; i--) {
        const res = await guess();
        expect([res.status, res.headers.get('ratelimit-limit'), res.headers.get('ratelimit-remaining')]).toEqual([
          401,
          '60',
          String(i),
        ]);
      }
      const blocked = await guess();
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(blocked.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { tier: 'free', limit: 60 } });
      // A real key from the same address is counted on its account's own budget.
      expect((await get(stack.api.url, CANDLES, await keyWithTier('free'))).status).toBe(200);
    } finally {
      await forgetAddress();
    }
  },
);

test('a dashboard session (Clerk JWT, no API key) is counted on its account at the free tier', async () => {
  const token = signer.signToken({ sub: 'user_marketSession0000000001', exp: Math.floor(Date.now() / 1000) + 60 });
  const first = await get(stack.api.url, '/api/v1/capabilities', token);
  expect(first.status).toBe(200);
  expect(first.body.data.rateLimit).toMatchObject({ tier: 'free', requestsPerMinute: 60 });
  expect([first.headers.get('ratelimit-limit'), first.headers.get('ratelimit-remaining')]).toEqual(['60', '59']);
  const { rows } = await stack.pool.query<{ points: number }>(
    `SELECT points FROM rate_limit_counters
     WHERE key = 'rl:account:' || (SELECT id FROM users WHERE clerk_user_id = $1)`,
    ['user_marketSession0000000001'],
  );
  expect(rows).toEqual([{ points: 1 }]);
});

describe('one budget per account, however many keys it holds', () => {
  async function secondKey(ownerKey: string, body: Record<string, unknown> = {}): Promise<string> {
    const res = await stack.http('POST', '/api/v1/api-keys', { key: ownerKey, body });
    expect(res.status).toBe(201);
    recordSecret(res.body.data.key);
    return res.body.data.key;
  }

  test('two free keys of one account share 60 requests a minute: 30 each, then both get 429', async () => {
    const owner = await stack.createUser();
    const other = await secondKey(owner.key, { name: 'second' });
    for (let i = 1; i <= 30; i++) {
      const [a, b] = [await get(stack.api.url, CANDLES, owner.key), await get(stack.api.url, CANDLES, other)];
      expect([i, a.status, b.status, b.headers.get('ratelimit-remaining')]).toEqual([i, 200, 200, String(60 - 2 * i)]);
    }
    const [a, b] = [await get(stack.api.url, CANDLES, owner.key), await get(stack.api.url, CANDLES, other)];
    expect([a.status, b.status]).toEqual([429, 429]);
    // A fresh key of the same account starts no fresh budget either.
    expect((await get(stack.api.url, CANDLES, await secondKey(owner.key))).status).toBe(429);
    // Another account is untouched.
    expect((await get(stack.api.url, CANDLES, await keyWithTier('free'))).status).toBe(200);
  }, 60_000);

  test('a dashboard session of the account spends the same budget as its keys', async () => {
    const clerkUserId = `user_marketShared${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const owner = await stack.createUser({ clerkUserId });
    const token = signer.signToken({ sub: clerkUserId, exp: Math.floor(Date.now() / 1000) + 120 });
    for (let i = 1; i <= 60; i++) expect((await get(stack.api.url, CANDLES, owner.key)).status).toBe(200);
    const session = await get(stack.api.url, CANDLES, token);
    expect([session.status, session.headers.get('ratelimit-remaining')]).toEqual([429, '0']);
  }, 60_000);

  test('a key without the read scope is refused market data: 403 INSUFFICIENT_SCOPE, headers included', async () => {
    const owner = await stack.createUser();
    const screeningOnly = await secondKey(owner.key, { scopes: ['screening'] });
    const res = await get(stack.api.url, CANDLES, screeningOnly);
    expect([res.status, res.body.code, res.headers.get('ratelimit-limit')]).toEqual([403, 'INSUFFICIENT_SCOPE', '60']);
  });
});

describe('PUT /api/v1/api-keys/:id/rate-limit (admin)', () => {
  test('sets a key’s tier, which capabilities then reports; bad input is a 400 naming the field', async () => {
    const user = await stack.createUser();
    const keyId = (await stack.http('GET', '/api/v1/api-keys', { key: user.key })).body.data[0].id;
    const path = `/api/v1/api-keys/${keyId}/rate-limit`;

    expect((await stack.http('PUT', path, { key: user.key, body: { tier: 'pro' } })).status).toBe(403);
    for (const [body, field] of [
      [{ tier: 'gold' }, 'tier'],
      [{ tier: 'enterprise' }, 'requestsPerMinute'],
      [{ tier: 'pro', requestsPerMinute: 1000 }, 'requestsPerMinute'],
      [{ tier: 'enterprise', requestsPerMinute: 0 }, 'requestsPerMinute'],
      [{ tier: 'free', burst: 5 }, 'burst'],
    ] as const) {
      const res = await stack.http('PUT', path, { key: admin.key, body });
      expect([JSON.stringify(body), res.status, res.body.error?.details?.parameter]).toEqual([
        JSON.stringify(body),
        400,
        field,
      ]);
    }
    expect(
      (
        await stack.http('PUT', '/api/v1/api-keys/00000000-0000-4000-8000-000000000000/rate-limit', {
          key: admin.key,
          body: { tier: 'pro' },
        })
      ).status,
    ).toBe(404);

    const set = await stack.http('PUT', path, {
      key: admin.key,
      body: { tier: 'enterprise', requestsPerMinute: 1200 },
    });
    expect(set.status).toBe(200);
    expect(set.body.data.rateLimit).toEqual({ tier: 'enterprise', requestsPerMinute: 1200 });
    const caps = await get(stack.api.url, '/api/v1/capabilities', user.key);
    expect(caps.body.data.rateLimit).toMatchObject({ tier: 'enterprise', requestsPerMinute: 1200 });
    expect(caps.headers.get('ratelimit-limit')).toBe('1200');
    const listed = await stack.http('GET', '/api/v1/api-keys', { key: user.key });
    expect(listed.body.data[0].rateLimit).toEqual({ tier: 'enterprise', requestsPerMinute: 1200 });
  });
});
