import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import { createErrorHandler, notFound } from '../../src/platform/http/errors';
import { createTieredLimiter, type RateLimitDecision, type TieredLimiter } from '../../src/platform/rate-limit/limiter';
import { createRateLimitMiddleware } from '../../src/platform/rate-limit/middleware';
import { requestsPerMinute, type RateLimitPrincipal } from '../../src/platform/rate-limit/tiers';
import { createLogger } from '../../src/platform/logging/logger';

const principal = (tier: RateLimitPrincipal['tier'], requestsPerMinute?: number | null): RateLimitPrincipal => ({
  key: `account:${randomUUID()}`,
  tier,
  requestsPerMinute,
});

async function consumeTimes(
  limiter: TieredLimiter,
  who: RateLimitPrincipal,
  times: number,
): Promise<RateLimitDecision[]> {
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < times; i++) decisions.push(await limiter.consume(who));
  return decisions;
}

describe('requestsPerMinute', () => {
  test.each([
    { label: 'free', who: principal('free'), expected: 60 },
    { label: 'pro', who: principal('pro'), expected: 300 },
    { label: 'free with a stray figure', who: principal('free', 5000), expected: 60 },
    { label: 'enterprise with 1000', who: principal('enterprise', 1000), expected: 1000 },
    { label: 'enterprise without a figure', who: principal('enterprise'), expected: 300 },
    { label: 'enterprise with null', who: principal('enterprise', null), expected: 300 },
    { label: 'enterprise with 0', who: principal('enterprise', 0), expected: 300 },
  ])('$label gets $expected per minute', ({ who, expected }) => {
    expect(requestsPerMinute(who)).toBe(expected);
  });
});

describe('tiered limiter (memory store)', () => {
  let limiter: TieredLimiter;
  beforeEach(() => {
    limiter = createTieredLimiter({ store: 'memory' });
  });

  test(
    'a free key is allowed 60 requests with remaining ' + '59..0, and the 61st is denied until the window resets',
    async () => {
      const who = principal('free');
      const decisions = await consumeTimes(limiter, who, 60);
      expect(decisions.every((d) => d.allowed && d.limit === 60 && d.tier === 'free' && d.windowSeconds === 60)).toBe(
        true,
      );
      expect(decisions.map((d) => d.remaining)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));

      const sixtyFirst = await limiter.consume(who);
      expect(sixtyFirst).toMatchObject({ allowed: false, tier: 'free', limit: 60, remaining: 0, windowSeconds: 60 });
      expect(sixtyFirst.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(sixtyFirst.resetSeconds).toBeLessThanOrEqual(60);
    },
  );

  test('a pro key is allowed 300 requests (so its 61st passes) and the 301st is denied', async () => {
    const who = principal('pro');
    const decisions = await consumeTimes(limiter, who, 300);
    expect(decisions.filter((d) => !d.allowed)).toEqual([]);
    expect(decisions[60]).toMatchObject({ allowed: true, limit: 300, remaining: 239 });
    expect(decisions[299]).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume(who)).toMatchObject({ allowed: false, tier: 'pro', limit: 300, remaining: 0 });
  });

  test('an enterprise key with 1000 per minute is allowed 1000 requests and denied the 1001st', async () => {
    const who = principal('enterprise', 1000);
    const decisions = await consumeTimes(limiter, who, 1000);
    expect(decisions.filter((d) => !d.allowed)).toEqual([]);
    expect(decisions[999]).toMatchObject({ limit: 1000, remaining: 0 });
    expect(await limiter.consume(who)).toMatchObject({ allowed: false, tier: 'enterprise', limit: 1000 });
  });

  test('an enterprise key without a figure is held to 300, not unlimited', async () => {
    const who = principal('enterprise', null);
    const decisions = await consumeTimes(limiter, who, 300);
    expect(decisions.filter((d) => !d.allowed)).toEqual([]);
    expect(decisions[0]).toMatchObject({ tier: 'enterprise', limit: 300, remaining: 299 });
    expect(await limiter.consume(who)).toMatchObject({ allowed: false, limit: 300 });
  });

  test('two principals count independently: an exhausted account does not affect another account', async () => {
    const first = principal('free');
    const second = principal('free');
    await consumeTimes(limiter, first, 60);
    expect((await limiter.consume(first)).allowed).toBe(false);
    expect(await limiter.consume(second)).toMatchObject({ allowed: true, remaining: 59 });
  });

  test(
    'one principal spends one counter whatever the limit its requests are checked against: after 61 free ' +
      'requests a pro key of the same account has 239 left, and no more than 300 pass in all',
    async () => {
      const account = `account:${randomUUID()}`;
      await consumeTimes(limiter, { key: account, tier: 'free' }, 60);
      expect(await limiter.consume({ key: account, tier: 'free' })).toMatchObject({ allowed: false, remaining: 0 });
      // The refused 61st counted too: the pro key goes on from 61 spent.
      expect(await limiter.consume({ key: account, tier: 'pro' })).toMatchObject({ allowed: true, remaining: 238 });
      const rest = await consumeTimes(limiter, { key: account, tier: 'pro' }, 239);
      expect(rest.filter((d) => d.allowed)).toHaveLength(238);
      expect(rest.at(-1)).toMatchObject({ allowed: false, limit: 300, remaining: 0 });
    },
  );

  test('a shorter window is reported in the decision', async () => {
    const short = createTieredLimiter({ store: 'memory' }, 5);
    const decision = await short.consume(principal('free'));
    expect(decision).toMatchObject({ allowed: true, windowSeconds: 5, limit: 60 });
    expect(decision.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(decision.resetSeconds).toBeLessThanOrEqual(5);
  });
});

describe('rate-limit middleware', () => {
  let server: Server;
  const principals = new Map<string, RateLimitPrincipal>();

  beforeAll(async () => {
    const app = express();
    // Stands in for authentication: the test names its principal in a header.
    app.use((req, res, next) => {
      const who = principals.get(req.get('x-test-principal') ?? '');
      if (!who) throw new Error('test request without a principal');
      res.locals.rateLimitPrincipal = who;
      next();
    });
    app.use(
      createRateLimitMiddleware({
        limiter: createTieredLimiter({ store: 'memory' }),
        principalOf: (res) => res.locals.rateLimitPrincipal as RateLimitPrincipal,
      }),
    );
    app.get('/ok', (_req, res) => {
      res.json({ success: true });
    });
    app.get('/missing', () => {
      throw notFound('Candle series');
    });
    app.use(createErrorHandler(createLogger('silent')));
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  const as = (who: RateLimitPrincipal) => {
    principals.set(who.key, who);
    return { get: (path: string) => request(server).get(path).set('x-test-principal', who.key) };
  };

  test('a 200 carries the four RateLimit headers', async () => {
    const client = as(principal('free'));
    const res = await client.get('/ok');
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-limit']).toBe('60');
    expect(res.headers['ratelimit-remaining']).toBe('59');
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    expect(res.headers['ratelimit-policy']).toBe('60;w=60');
    expect(res.headers['retry-after']).toBeUndefined();
  });

  test('a 404 thrown by a later handler still carries the headers and counts against the limit', async () => {
    const client = as(principal('pro'));
    await client.get('/ok');
    const res = await client.get('/missing');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    expect(res.headers['ratelimit-limit']).toBe('300');
    expect(res.headers['ratelimit-remaining']).toBe('298');
    expect(res.headers['ratelimit-policy']).toBe('300;w=60');
    expect(res.headers['ratelimit-reset']).toMatch(/^\d+$/);
  });

  test(
    'a free key gets 429 with Retry-After and the structured ' + 'body on its 61st request, while a pro key does not',
    async () => {
      const free = as(principal('free'));
      const pro = as(principal('pro'));
      for (let i = 1; i <= 60; i++) {
        const [freeRes, proRes] = await Promise.all([free.get('/ok'), pro.get('/ok')]);
        expect([freeRes.status, proRes.status]).toEqual([200, 200]);
      }

      const [limited, proSixtyFirst] = await Promise.all([free.get('/ok'), pro.get('/ok')]);

      expect(proSixtyFirst.status).toBe(200);
      expect(proSixtyFirst.headers['ratelimit-remaining']).toBe('239');

      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers['ratelimit-limit']).toBe('60');
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      expect(limited.headers['ratelimit-policy']).toBe('60;w=60');
      expect(limited.body).toEqual({
        success: false,
        error: {
          code: 'RATE_LIMITED',
          message: expect.stringContaining('60 requests per 60 s'),
          details: { tier: 'free', limit: 60, windowSeconds: 60, retryAfterSeconds: retryAfter },
        },
      });
    },
  );

  test('an Error from the limiter reaches the error handler as a 500', async () => {
    const app = express();
    const failing: TieredLimiter = {
      consume: async () => {
        throw new Error('store exploded');
      },
    };
    app.use(createRateLimitMiddleware({ limiter: failing, principalOf: () => principal('free') }));
    app.get('/ok', (_req, res) => {
      res.json({ success: true });
    });
    app.use(createErrorHandler(createLogger('silent')));
    const res = await request(app).get('/ok');
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('INTERNAL');
  });
});
