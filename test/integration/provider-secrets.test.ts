import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scrape } from '../helpers/prometheus';
import { recordSecret } from '../helpers/run-log';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * A chain provider configured with credentials in its URL (userinfo and a token in the path), as hosted Esplora,
 * TronGrid-compatible and JSON-RPC endpoints are, and failing: the job's error, the logs the run wrote and both
 * /metrics say which provider and which path failed, and hold none of the URL's secrets.
 */
const USER = 'provider-user-7c1f';
const PASSWORD = 's3cret-pass-456789';
const TOKEN = 'secret-token-123456';
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
const SECRETS = [USER, PASSWORD, TOKEN, BASIC];

/** An upstream that fails every call with a page quoting what it was asked (URL and Authorization header). */
async function startQuotingUpstream(): Promise<{ hostPort: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
    const quote = `upstream refused http://${req.headers.host}${req.url} (authorization: ${req.headers.authorization})`;
    // Esplora is read as REST (a 200 that is not JSON); the EVM node as JSON-RPC (a 500).
    if (req.method === 'GET') res.writeHead(200, { 'content-type': 'text/html' }).end(`<pre>${quote}</pre>`);
    else res.writeHead(500, { 'content-type': 'text/plain' }).end(quote);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    hostPort: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const BITCOIN_ADDRESS = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa';
const EVM_ADDRESS = '0x00000000219ab540356cbb839cbe05303d7705fa';

describe('provider URLs with secrets, failing', () => {
  let upstream: Awaited<ReturnType<typeof startQuotingUpstream>>;
  let stack: TestStack;
  const runLog = () => (process.env.TEST_RUN_LOG ? readFileSync(process.env.TEST_RUN_LOG, 'utf8') : '');

  beforeAll(async () => {
    for (const secret of SECRETS) recordSecret(secret);
    upstream = await startQuotingUpstream();
    const endpoint = (path: string) => `http://${USER}:${PASSWORD}@${upstream.hostPort}/${TOKEN}/${path}`;
    stack = await startTestStack({
      env: { BITCOIN_ESPLORA_URL: endpoint('api'), ETHEREUM_RPC_URL: endpoint('rpc') },
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    await upstream?.close();
  });

  test.each([
    [
      'bitcoin',
      BITCOIN_ADDRESS,
      new RegExp(`^esplora GET /address/${BITCOIN_ADDRESS}: HTTP 200 with a body that is not JSON`),
    ],
    ['ethereum', EVM_ADDRESS, /^ethereum node failed on eth_\w+: HTTP 500/],
  ])(
    'when the %s job fails at its provider, then its error names the provider and the path only, and no log line ' +
      'or metric holds the URL’s credentials',
    async (chain, address, expected) => {
      const user = await stack.createUser({ credits: 10 });
      const submit = await stack.http('POST', '/api/v1/kyt/job', { key: user.key, body: { chain, address } });
      expect(submit.status).toBe(202);
      const requestId: string = submit.body.data.request_id;

      const polled = await pollUntilDone(stack, user.key, requestId, 60_000);

      // The provider was reached, with the userinfo sent as Basic auth.
      expect(upstream.seen.some((line) => line.includes(`/${TOKEN}/`) && line.endsWith(`Basic ${BASIC}`))).toBe(true);
      expect(polled.data).toMatchObject({ status: 'failed', error: { code: 'CHAIN_UNAVAILABLE' } });
      expect(polled.data.error.message).toMatch(expected);
      const answer = JSON.stringify(polled);
      for (const secret of [...SECRETS, upstream.hostPort]) expect(answer).not.toContain(secret);

      // The failure reached the logs (the activity's failure names the job), and no line holds a secret.
      const lines = runLog().split('\n');
      expect(lines.some((line) => line.includes(`screening:${requestId}`) && /fail/i.test(line))).toBe(true);
      for (const secret of SECRETS) expect(lines.filter((line) => line.includes(secret))).toEqual([]);

      for (const base of [stack.workerHttp.url, stack.api.internalUrl]) {
        const { text } = await scrape(base);
        expect(text.length).toBeGreaterThan(0);
        for (const secret of SECRETS) expect(text).not.toContain(secret);
      }
    },
    90_000,
  );
});
