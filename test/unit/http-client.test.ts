import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createHttpClient,
  HttpGiveUpError,
  type Classifier,
  type HttpClientOptions,
} from '../../src/platform/http-client/http-client';
import { parseRetryAfter } from '../../src/platform/http-client/retry-after';
import { createTokenBucket } from '../../src/platform/http-client/token-bucket';
import { Registry } from 'prom-client';
import { screeningWorkerMetrics } from '../../src/screening/metrics/screening-worker-metrics';
import { changedSeries, parsePrometheus, sampleValue } from '../helpers/prometheus';

/** One scripted answer per request, in order; the last one repeats. `hang` never answers. */
type Step = { status?: number; body?: unknown; raw?: string; headers?: Record<string, string>; hang?: boolean };

interface LocalServer {
  url: URL;
  /** Arrival time (ms) of each request. */
  arrivals: number[];
  close(): Promise<void>;
}

async function serve(steps: Step[]): Promise<LocalServer> {
  const arrivals: number[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const step = steps[Math.min(arrivals.length, steps.length - 1)]!;
    arrivals.push(Date.now());
    if (step.hang) {
      hanging.add(res);
      return;
    }
    res.writeHead(step.status ?? 200, { 'content-type': 'application/json', ...step.headers });
    res.end(step.raw ?? JSON.stringify(step.body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api`),
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fast = { baseDelayMs: 10, maxDelayMs: 20 };
const client = (o: Partial<HttpClientOptions> = {}) =>
  createHttpClient({ name: 'test', timeoutMs: 2_000, retry: fast, ...o });

async function giveUp(p: Promise<unknown>): Promise<HttpGiveUpError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpGiveUpError);
  return err as HttpGiveUpError;
}

describe('shared HTTP client: retries, Retry-After, timeouts and provider rules against a local server', () => {
  test(
    'when the server answers 503 then 200, then the value comes back after one retry and the ' +
      'metrics count both attempts',
    async () => {
      server = await serve([{ status: 503 }, { body: { ok: 1 } }]);
      const c = client();
      await expect(c.request({ url: server.url })).resolves.toEqual({ ok: 1 });
      expect(server.arrivals).toHaveLength(2);
      expect(c.metrics()).toEqual({ requests: 2, retries: 1, rateLimited: 0, failures: 0 });
    },
  );

  test('when a 429 says Retry-After: 1, then the retry waits about a second, not the short backoff', async () => {
    server = await serve([{ status: 429, headers: { 'retry-after': '1' } }, { body: [1] }]);
    const c = client();
    await expect(c.request({ url: server.url })).resolves.toEqual([1]);
    const gap = server.arrivals[1]! - server.arrivals[0]!;
    expect(gap).toBeGreaterThanOrEqual(950);
    expect(gap).toBeLessThan(2_000);
    expect(c.metrics()).toMatchObject({ rateLimited: 1, retries: 1 });
  });

  test(
    'when Retry-After is longer than the policy waits inside one call, ' +
      'then the call gives up at once saying how long to wait',
    async () => {
      server = await serve([{ status: 429, headers: { 'retry-after': '120' } }]);
      const err = await giveUp(client({ retry: { ...fast, maxRetryAfterMs: 5_000 } }).request({ url: server.url }));
      expect(err.details).toMatchObject({ retryableLater: true, status: 429, afterMs: 120_000, attempts: 1 });
      expect(err.message).toMatch(/test GET \/api: HTTP 429; retry after 120000 ms/);
      expect(server.arrivals).toHaveLength(1);
    },
  );

  test(
    'when the server never answers, then each attempt ends at its own timeout and the call ' +
      'gives up after all attempts',
    async () => {
      server = await serve([{ hang: true }]);
      const started = Date.now();
      const err = await giveUp(
        client({ timeoutMs: 150, retry: { ...fast, maxRetries: 2 } }).request({ url: server.url }),
      );
      expect(server.arrivals).toHaveLength(3);
      expect(err.message).toMatch(/test GET \/api: no answer within 150 ms \(gave up after 3 attempts\)/);
      expect(err.details).toMatchObject({ retryableLater: true, attempts: 3 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 150 - 20);
      expect(Date.now() - started).toBeLessThan(1_500);
    },
  );

  test('when a request sets its own timeout, then it wins over the client default', async () => {
    server = await serve([{ hang: true }]);
    const started = Date.now();
    const err = await giveUp(
      client({ timeoutMs: 10_000, retry: { ...fast, maxRetries: 0 } }).request({ url: server.url, timeoutMs: 100 }),
    );
    expect(err.message).toMatch(/no answer within 100 ms/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test(
    'when the caller aborts during a Retry-After wait, ' + "then the call ends at once with the caller's reason",
    async () => {
      server = await serve([{ status: 503, headers: { 'retry-after': '5' } }]);
      const started = Date.now();
      const reason = new Error('crawl deadline');
      const controller = new AbortController();
      setTimeout(() => controller.abort(reason), 100);
      await expect(client().request({ url: server.url, signal: controller.signal })).rejects.toBe(reason);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(server.arrivals).toHaveLength(1);
    },
  );

  test('when a 4xx other than 429 comes back, then the call fails at once as not worth retrying', async () => {
    server = await serve([{ status: 403, body: { error: 'forbidden' } }]);
    const err = await giveUp(client().request({ url: server.url }));
    expect(err.details).toMatchObject({ retryableLater: false, status: 403, attempts: 1 });
    expect(server.arrivals).toHaveLength(1);
  });

  test(
    'when a provider rule reads a 200 body as a rate limit, then it is retried; as a bad key, ' +
      'then the call stops as misconfigured',
    async () => {
      // Etherscan's style: HTTP 200 with {status:"0", result:"<why>"}.
      const rules: Classifier<unknown> = (answer, where) => {
        const body = answer.json as { status: string; result: unknown };
        if (body.status === '1') return { kind: 'ok', value: body.result };
        const why = String(body.result);
        if (/rate limit/i.test(why)) return { kind: 'retry', reason: `${where}: ${why}`, rateLimited: true };
        return { kind: 'fail', reason: `${where}: ${why}`, misconfigured: true };
      };
      server = await serve([
        { body: { status: '0', message: 'NOTOK', result: 'Max rate limit reached' } },
        { body: { status: '1', message: 'OK', result: ['tx'] } },
      ]);
      const c = client();
      await expect(c.request({ url: server.url, classify: rules })).resolves.toEqual(['tx']);
      expect(c.metrics()).toMatchObject({ requests: 2, rateLimited: 1, retries: 1 });
      await server.close();

      server = await serve([{ body: { status: '0', message: 'NOTOK', result: 'Invalid API Key' } }]);
      const err = await giveUp(client().request({ url: server.url, classify: rules }));
      expect(err.details).toMatchObject({ misconfigured: true, retryableLater: false, attempts: 1 });
      expect(err.message).toBe('test GET /api: Invalid API Key');
    },
  );

  test('when a 2xx body is not JSON, then the call fails at once instead of retrying garbage', async () => {
    server = await serve([{ raw: '<html>maintenance</html>' }]);
    const err = await giveUp(client().request({ url: server.url }));
    expect(err.message).toMatch(/HTTP 200 with a body that is not JSON: <html>maintenance<\/html>/);
    expect(server.arrivals).toHaveLength(1);
  });

  test('when two clients share one 4/s bucket, then eight requests between them take about a second', async () => {
    server = await serve([{ body: 1 }]);
    const bucket = createTokenBucket(4);
    const [a, b] = [client({ bucket }), client({ bucket })];
    const started = Date.now();
    await Promise.all([0, 1, 2, 3].flatMap(() => [a.request({ url: server!.url }), b.request({ url: server!.url })]));
    // 4 go at once (the burst), the other 4 at 250 ms intervals.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.arrivals).toHaveLength(8);
  });
});

describe('Retry-After parsing', () => {
  test('when the header is seconds, a fraction, an HTTP date or garbage, then the wait is read accordingly', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2_000);
    expect(parseRetryAfter('0.05', now)).toBe(50);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

describe("shared HTTP client: per-provider counts for the worker's Prometheus metrics", () => {
  test(
    'when a provider answers 429, then 503, then 400, then the registry counts three requests and one error of ' +
      'each kind for that provider',
    async () => {
      server = await serve([{ status: 429 }, { status: 503 }, { status: 400 }]);
      const registry = new Registry();
      const metrics = screeningWorkerMetrics(registry);

      await giveUp(client({ name: 'esplora', observer: metrics.chainCalls }).request({ url: server.url }));
      const samples = parsePrometheus(await registry.metrics());

      expect(sampleValue(samples, 'chainscreen_chain_requests_total', { provider: 'esplora' })).toBe(3);
      expect(changedSeries(new Map(), samples, 'chainscreen_chain_request_errors_total')).toEqual({
        '{kind="rate_limited",provider="esplora"}': 1,
        '{kind="refused",provider="esplora"}': 1,
        '{kind="transient",provider="esplora"}': 1,
      });
    },
  );
});
