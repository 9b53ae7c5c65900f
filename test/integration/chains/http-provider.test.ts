import { ChainUnavailableError } from '../../../src/screening/chains/chain-client';
import { createHttpProvider } from '../../../src/screening/chains/http-provider';
import { startReplayServer, type ReplayServer } from '../../helpers/replay-server';

describe('chain HTTP provider (rate limit, retries, deadline) against the strict replay server', () => {
  let server: ReplayServer | undefined;
  afterEach(async () => {
    expect(server?.misses ?? []).toEqual([]);
    await server?.close();
    server = undefined;
  });
  const provider = (url: string, ratePerSecond = 100) =>
    createHttpProvider({
      chain: 'bitcoin',
      name: 'test',
      baseUrl: url,
      ratePerSecond,
      requestTimeoutMs: 2000,
      maxRetries: 2,
    });

  test('when the first answer is 429 with Retry-After, then the request is retried and the data returned', async () => {
    server = await startReplayServer([
      {
        request: { method: 'GET', path: '/tx/1' },
        response: { status: 429, body: {}, headers: { 'retry-after': '0' } },
        times: 1,
      },
      { request: { method: 'GET', path: '/tx/1' }, response: { body: { ok: true } } },
    ]);
    const p = provider(server.url);
    expect(await p.request('GET', '/tx/1', { signal: AbortSignal.timeout(5000) })).toEqual({ ok: true });
    expect(p.metrics()).toEqual({ requests: 2, retries: 1, rateLimited: 1, failures: 0 });
  });

  test('when every answer is 503, then ChainUnavailableError after the retries', async () => {
    server = await startReplayServer([{ request: { method: 'GET', path: '/x' }, response: { status: 503, body: {} } }]);
    const p = provider(server.url);
    await expect(p.request('GET', '/x', { signal: AbortSignal.timeout(5000) })).rejects.toBeInstanceOf(
      ChainUnavailableError,
    );
    expect(p.metrics()).toMatchObject({ requests: 3, failures: 1 });
  });

  test(
    'when the server hangs, then the crawl deadline ' + 'ends the request promptly with the deadline reason',
    async () => {
      server = await startReplayServer([
        { request: { method: 'GET', path: '/hang' }, response: { body: {} }, hang: true },
      ]);
      const started = Date.now();
      await expect(
        provider(server.url).request('GET', '/hang', { signal: AbortSignal.timeout(300) }),
      ).rejects.toMatchObject({ name: 'TimeoutError' });
      expect(Date.now() - started).toBeLessThan(1300);
    },
  );

  test('when 404 is expected, then null; when the rate is 5/s, then ten requests take about a second', async () => {
    server = await startReplayServer([
      { request: { method: 'GET', path: '/missing' }, response: { status: 404, body: {} } },
      { request: { method: 'GET', path: '/ok', query: { n: '1' } }, response: { body: 1 } },
    ]);
    const p = provider(server.url, 5);
    expect(await p.request('GET', '/missing', { signal: AbortSignal.timeout(5000), notFoundAsNull: true })).toBeNull();
    const started = Date.now();
    for (let i = 0; i < 9; i++) await p.request('GET', '/ok', { signal: AbortSignal.timeout(5000), query: { n: 1 } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
  });
});
