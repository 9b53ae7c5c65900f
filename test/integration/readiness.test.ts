import { networkInterfaces } from 'node:os';
import { startWorkerHttpServer } from '../../src/app/worker-http-server';
import { detailedReadinessResponse } from '../../src/platform/health/health-router';
import { createMetricsRegistry } from '../../src/platform/metrics/metrics-registry';
import { startPausableProxy, type PausableProxy } from '../helpers/pausable-proxy';
import { startTestStack, type TestStack } from '../helpers/test-stack';

async function probe(
  baseUrl: string,
  path: '/healthz' | '/readyz',
): Promise<{ status: number; body: any; ms: number }> {
  const started = Date.now();
  const res = await fetch(`${baseUrl}${path}`);
  return { status: res.status, body: await res.json(), ms: Date.now() - started };
}

/** This machine's first address that is not loopback: what a caller from elsewhere on the network would reach. */
function outsideAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

/** The status a GET answers at `port` on `host`, or the connection error's code (ECONNREFUSED: nothing listens). */
async function reach(host: string, port: string, path: string): Promise<number | string> {
  try {
    return (await fetch(`http://${host}:${port}${path}`)).status;
  } catch (err) {
    return ((err as Error & { cause?: { code?: string } }).cause?.code ?? String(err)) as string;
  }
}

/**
 * /healthz and /readyz of the api (the public port says ready or not; its internal listener names every check) and
 * of the worker's own server, against real dependencies: a worker polling its task queue, none polling, and a
 * Postgres that stops answering (a paused TCP proxy, which neither answers nor closes, like a partitioned server).
 */
describe('health and readiness probes', () => {
  let ready: TestStack;
  let workerless: TestStack;
  let proxy: PausableProxy;
  let behindProxy: TestStack;

  beforeAll(async () => {
    proxy = await startPausableProxy(process.env.TEST_DATABASE_URL as string);
    [ready, workerless, behindProxy] = await Promise.all([
      startTestStack(),
      startTestStack({ worker: false }),
      startTestStack({ env: { DATABASE_URL: proxy.url } }),
    ]);
  }, 60_000);
  afterAll(async () => {
    proxy?.resume();
    await Promise.all([ready?.stop(), workerless?.stop(), behindProxy?.stop()]);
    await proxy?.close();
  });

  test(
    'when the OFAC list is older than its maximum age while refresh is on, ' +
      'then readiness says degraded but stays 200',
    async () => {
      const stale = await startTestStack({ env: { OFAC_REFRESH_EVERY_HOURS: '24', OFAC_MAX_AGE_DAYS: '1' } });
      try {
        expect(await probe(stale.api.url, '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
        const ready = await probe(stale.api.internalUrl, '/readyz');
        expect(ready.status).toBe(200);
        expect(ready.body.status).toBe('degraded');
        expect(ready.body.checks.lists).toMatchObject({ ok: false, error: expect.stringMatching(/older than 1 days/) });
        expect(ready.body.checks.postgres.ok).toBe(true);
        const user = await stale.createUser({ credits: 0 });
        const lists = await stale.http('GET', '/api/v1/lists', { key: user.key });
        expect(lists.body.data.sanctions[0]).toMatchObject({
          stale: true,
          max_age_days: 1,
          refresh: { enabled: true },
        });
        const metrics = await (await fetch(`${stale.api.internalUrl}/metrics`)).text();
        const age = Number(/^chainscreen_list_age_seconds\{list="ofac"\} (\d+)$/m.exec(metrics)?.[1]);
        const issued = Date.parse(`${lists.body.data.sanctions[0].active.issue_date}T00:00:00Z`);
        expect(Math.abs(age - (Date.now() - issued) / 1000)).toBeLessThan(60);
      } finally {
        await stale.stop();
      }
    },
  );

  test(
    'when a worker polls the task queue and every dependency ' + 'answers, then both processes are live and ready',
    async () => {
      const [apiLive, apiPublicReady, apiReady, workerLive, workerReady] = await Promise.all([
        probe(ready.api.url, '/healthz'),
        probe(ready.api.url, '/readyz'),
        probe(ready.api.internalUrl, '/readyz'),
        probe(ready.workerHttp.url, '/healthz'),
        probe(ready.workerHttp.url, '/readyz'),
      ]);

      expect([apiLive.status, apiLive.body]).toEqual([200, { status: 'ok' }]);
      expect([apiPublicReady.status, apiPublicReady.body]).toEqual([200, { status: 'ready' }]);
      expect(apiReady.status).toBe(200);
      detailedReadinessResponse.parse(apiReady.body);
      expect(apiReady.body).toEqual({
        status: 'ok',
        checks: {
          postgres: { ok: true, latencyMs: expect.any(Number) },
          temporal: { ok: true, latencyMs: expect.any(Number) },
          worker: {
            ok: true,
            latencyMs: expect.any(Number),
            detail: `1 poller(s) on task queue ${ready.config.TEMPORAL_TASK_QUEUE}`,
          },
          // An advisory: the OFAC list in use (refresh is off in tests, so it is never stale here).
          lists: {
            ok: true,
            latencyMs: expect.any(Number),
            detail: expect.stringMatching(/^OFAC issue \d{4}-\d{2}-\d{2}$/),
          },
        },
      });
      expect([workerLive.status, workerReady.status, workerReady.body.status]).toEqual([200, 200, 'ok']);
      expect(Object.keys(workerReady.body.checks).sort()).toEqual(['postgres', 'worker']);
    },
  );

  test(
    'when no worker polls the task queue, then the api is ' + 'live but not ready, and says the worker check failed',
    async () => {
      const [live, publicReadiness, readiness, workerReadiness] = await Promise.all([
        probe(workerless.api.url, '/healthz'),
        probe(workerless.api.url, '/readyz'),
        probe(workerless.api.internalUrl, '/readyz'),
        probe(workerless.workerHttp.url, '/readyz'),
      ]);

      expect(live.status).toBe(200);
      // The public port says only that it is not ready; which check failed is for the internal listener.
      expect([publicReadiness.status, publicReadiness.body]).toEqual([503, { status: 'not_ready' }]);
      expect(readiness.status).toBe(503);
      expect(readiness.body.status).toBe('unavailable');
      expect(readiness.body.checks.postgres.ok).toBe(true);
      expect(readiness.body.checks.temporal.ok).toBe(true);
      expect(readiness.body.checks.worker).toEqual({
        ok: false,
        latencyMs: expect.any(Number),
        error: `no worker polled task queue ${workerless.config.TEMPORAL_TASK_QUEUE} in the last 90 s`,
      });
      expect([workerReadiness.status, workerReadiness.body.checks.worker.ok]).toEqual([503, false]);
    },
  );

  test(
    'when Postgres stops answering, then readiness fails within the probe timeout naming postgres, ' +
      'liveness stays 200, and both recover when it answers again',
    async () => {
      expect((await probe(behindProxy.api.url, '/readyz')).status).toBe(200);

      proxy.pause();
      const [apiLive, apiPublicReady, apiReady, workerReady] = await Promise.all([
        probe(behindProxy.api.url, '/healthz'),
        probe(behindProxy.api.url, '/readyz'),
        probe(behindProxy.api.internalUrl, '/readyz'),
        probe(behindProxy.workerHttp.url, '/readyz'),
      ]);
      proxy.resume();
      const recovered = await probe(behindProxy.api.url, '/readyz');

      expect(apiLive.status).toBe(200);
      expect([apiPublicReady.status, apiPublicReady.body]).toEqual([503, { status: 'not_ready' }]);
      expect(apiReady.status).toBe(503);
      expect(apiReady.body.checks.postgres).toEqual({
        ok: false,
        latencyMs: expect.any(Number),
        error: 'no answer within 2000 ms',
      });
      expect([apiReady.body.checks.temporal.ok, apiReady.body.checks.worker.ok]).toEqual([true, true]);
      expect(apiReady.ms).toBeLessThan(4_000);
      expect([workerReady.status, workerReady.body.checks.postgres.ok, workerReady.body.checks.worker.ok]).toEqual([
        503,
        false,
        true,
      ]);
      expect(recovered.status).toBe(200);
    },
  );

  test(
    'when the api and the worker run with their default hosts, then the public port serves probes but no metrics, ' +
      'and the internal listener and the worker server answer on loopback only',
    async () => {
      const outside = outsideAddress();
      expect(outside).toBeDefined(); // a machine with a network interface, as every CI runner has
      const host = outside as string;
      // The worker's server with no host given, as src/worker.ts starts it when WORKER_HTTP_HOST is unset.
      const workerServer = await startWorkerHttpServer({
        port: 0,
        registry: createMetricsRegistry(),
        pool: ready.pool,
        workerRunning: () => true,
      });
      try {
        const publicPort = new URL(ready.api.url).port;
        const internalPort = new URL(ready.api.internalUrl).port;
        const workerPort = new URL(workerServer.url).port;

        const answers = {
          publicHealthz: await reach(host, publicPort, '/healthz'),
          publicReadyz: await reach(host, publicPort, '/readyz'),
          publicMetrics: await reach(host, publicPort, '/metrics'),
          internalFromOutside: await reach(host, internalPort, '/metrics'),
          internalOnLoopback: await reach('127.0.0.1', internalPort, '/metrics'),
          workerFromOutside: await reach(host, workerPort, '/metrics'),
          workerOnLoopback: await reach('127.0.0.1', workerPort, '/metrics'),
        };

        expect(answers).toEqual({
          publicHealthz: 200,
          publicReadyz: 200,
          publicMetrics: 404,
          internalFromOutside: 'ECONNREFUSED',
          internalOnLoopback: 200,
          workerFromOutside: 'ECONNREFUSED',
          workerOnLoopback: 200,
        });
      } finally {
        await workerServer.close();
      }
    },
  );
});
