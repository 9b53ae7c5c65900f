import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpClient, HttpGiveUpError } from '../../src/platform/http-client/http-client';
import { createHttpProvider } from '../../src/screening/chains/http-provider';
import { ChainConfigurationError, ChainUnavailableError } from '../../src/screening/chains/chain-client';

/**
 * The shared HTTP client's bounds against local servers: answer size (streamed and counted), redirects (refused,
 * not followed), and what its errors may say about the endpoint (provider name and relative path only).
 */
interface Local {
  base: string;
  /** Requests received: path and the Authorization header. */
  seen: { path: string; authorization?: string }[];
  /** Bytes of body written to clients so far. */
  bytesSent: () => number;
  close(): Promise<void>;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse, local: Local) => void): Promise<Local> {
  let sent = 0;
  const local: Local = { base: '', seen: [], bytesSent: () => sent, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    local.seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    const write = res.write.bind(res);
    res.write = ((chunk: Buffer | string, ...rest: never[]) => {
      sent += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    handler(req, res, local);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  local.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  local.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return local;
}

const servers: Local[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
const started = async (handler: Parameters<typeof serve>[0]) => {
  const s = await serve(handler);
  servers.push(s);
  return s;
};

async function failure(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}

const MiB = 1024 * 1024;
const signal = () => new AbortController().signal;

describe('shared HTTP client bounds', () => {
  test(
    'when an answer streams without end and without a length, then the call fails once the cap is passed, ' +
      'is not retried, and the server could send little more than the cap',
    async () => {
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const server = await started((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => res.removeAllListeners('drain'));
        pump();
      });
      const client = createHttpClient({
        name: 'flood',
        timeoutMs: 10_000,
        maxResponseBytes: MiB,
        retry: { maxRetries: 3, baseDelayMs: 10 },
      });
      const heapBefore = process.memoryUsage().heapUsed;
      const t0 = Date.now();

      const err = await failure(client.request({ url: new URL(`${server.base}/big`) }));

      expect(err).toBeInstanceOf(HttpGiveUpError);
      expect(err.message).toBe(`flood GET /big: response larger than ${MiB} bytes (HTTP_MAX_RESPONSE_BYTES)`);
      expect((err as HttpGiveUpError).details).toMatchObject({
        retryableLater: false,
        code: 'RESPONSE_TOO_LARGE',
        attempts: 1,
      });
      expect(server.seen).toHaveLength(1);
      expect(Date.now() - t0).toBeLessThan(3_000);
      // The connection was closed: what was sent is the cap plus what socket buffers held, not an endless body.
      await new Promise((r) => setTimeout(r, 100));
      expect(server.bytesSent()).toBeLessThan(16 * MiB);
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * MiB);
    },
  );

  test('when an answer declares a length over the cap, then it is refused before its body is read', async () => {
    const server = await started((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(8 * MiB) });
      res.write('[');
    });
    const client = createHttpClient({ name: 'declared', timeoutMs: 5_000, maxResponseBytes: MiB });

    const err = await failure(client.request({ url: new URL(`${server.base}/x`) }));

    expect(err.message).toMatch(/^declared GET \/x: response larger than 1048576 bytes/);
    expect(server.seen).toHaveLength(1);
  });

  test('when an answer fits under the cap, then it is read whole', async () => {
    const body = JSON.stringify({ items: 'b'.repeat(MiB - 100) });
    const server = await started((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const client = createHttpClient({ name: 'fits', timeoutMs: 5_000, maxResponseBytes: MiB });

    await expect(client.request({ url: new URL(`${server.base}/ok`) })).resolves.toEqual(JSON.parse(body));
  });

  test(
    'when the provider answers 302, then the call fails naming the provider, the redirect target is never ' +
      'asked, and the chain error calls it a configuration fault',
    async () => {
      const target = await started((_req, res) => res.writeHead(200).end('{}'));
      const server = await started((_req, res) => {
        res.writeHead(302, { location: `${target.base}/elsewhere?apikey=leaked-on-redirect` });
        res.end();
      });
      const client = createHttpClient({ name: 'moved', timeoutMs: 5_000, retry: { maxRetries: 3, baseDelayMs: 10 } });

      const err = await failure(client.request({ url: new URL(`${server.base}/v1/thing`) }));

      expect(err.message).toBe(
        'moved GET /v1/thing: redirected (HTTP 302), not followed: configure the URL it points to',
      );
      expect((err as HttpGiveUpError).details).toMatchObject({
        status: 302,
        misconfigured: true,
        retryableLater: false,
        attempts: 1,
      });
      expect(target.seen).toEqual([]);

      const provider = createHttpProvider({
        chain: 'bitcoin',
        name: 'esplora',
        baseUrl: `${server.base}/api`,
        ratePerSecond: 100,
        requestTimeoutMs: 5_000,
      });
      const chainErr = await failure(provider.request('GET', '/address/x', { signal: signal() }));
      expect(chainErr).toBeInstanceOf(ChainConfigurationError);
      expect(chainErr.message).toMatch(/^esplora GET \/address\/x: redirected \(HTTP 302\)/);
      expect(target.seen).toEqual([]);
    },
  );

  test(
    'when the endpoint holds a token in its path and credentials in its userinfo, then the credentials go as ' +
      'Basic auth, and no error (an answer quoting the request, a network failure) names any of them',
    async () => {
      const server = await started((req, res) => {
        // A proxy's error page that quotes what it was asked, headers included.
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<h1>Bad gateway</h1> for http://${req.headers.host}${req.url} (${req.headers.authorization})`);
      });
      const endpoint = `http://chain-user:s3cret-pass-456@${server.base.slice('http://'.length)}/secret-token-123/api`;
      const provider = createHttpProvider({
        chain: 'bitcoin',
        name: 'esplora',
        baseUrl: endpoint,
        ratePerSecond: 100,
        requestTimeoutMs: 5_000,
        maxRetries: 0,
      });
      const basic = Buffer.from('chain-user:s3cret-pass-456').toString('base64');

      const answered = await failure(provider.request('GET', '/address/bc1qexample', { signal: signal() }));
      await server.close();
      const unreachable = await failure(provider.request('GET', '/tx/abc', { signal: signal() }));

      expect(server.seen).toEqual([
        { path: '/secret-token-123/api/address/bc1qexample', authorization: `Basic ${basic}` },
      ]);
      expect(answered).toBeInstanceOf(ChainUnavailableError);
      expect(answered.message).toMatch(/^esplora GET \/address\/bc1qexample: HTTP 200 with a body that is not JSON/);
      expect(unreachable.message).toMatch(/^esplora GET \/tx\/abc: network error: .*fetch failed/);
      for (const message of [answered.message, unreachable.message])
        for (const secret of ['secret-token-123', 'chain-user', 's3cret-pass-456', basic, server.base])
          expect(message).not.toContain(secret);
    },
  );

  test(
    'when a client without an endpoint calls a URL with credentials and a key in its query, then the network ' +
      'error names the path only',
    async () => {
      const client = createHttpClient({ name: 'exchange', timeoutMs: 2_000, retry: { maxRetries: 0 } });
      const err = await failure(
        client.request({ url: new URL('http://trader:pw-value-789@127.0.0.1:1/v3/klines?apiKey=query-key-123') }),
      );

      expect(err.message).toMatch(/^exchange GET \/v3\/klines: network error/);
      for (const secret of ['trader', 'pw-value-789', 'query-key-123']) expect(err.message).not.toContain(secret);
    },
  );
});
