import { X509Certificate } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VerificationUnavailableError, WebhookSignatureError } from '../../src/webhooks/paypal/errors';
import { createPayPalPostbackVerifier, paypalApiBaseUrl, type PayPalPostbackDeps } from '../../src/webhooks/paypal/postback';
import { event, fixture, fixtureText, rejection, TEST_LEAF_PEM, testVerifier, WEBHOOK_ID } from './paypal-fixtures';

const ACTIVATED = event('BILLING.SUBSCRIPTION.ACTIVATED');
const TOKEN = JSON.parse(fixtureText('verify-webhook-signature/oauth2-token.response.json')) as { access_token: string; expires_in: number };
const SUCCESS = fixtureText('verify-webhook-signature/response.success.json');
const FAILURE = fixtureText('verify-webhook-signature/response.failure.json');

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

type Reply = (req: Recorded, res: ServerResponse) => void;
const json = (status: number, body: string): Reply => (_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);

/** A fake api-m.sandbox.paypal.com: records every request; replies come from the per-path queues, else the defaults. */
class FakePayPal {
  readonly requests: Recorded[] = [];
  tokenReplies: Reply[] = [];
  verifyReplies: Reply[] = [];
  defaultToken: Reply = json(200, JSON.stringify(TOKEN));
  defaultVerify: Reply = json(200, SUCCESS);
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      this.requests.push(recorded);
      if (recorded.url === '/v1/oauth2/token') (this.tokenReplies.shift() ?? this.defaultToken)(recorded, res);
      else if (recorded.url === '/v1/notifications/verify-webhook-signature') (this.verifyReplies.shift() ?? this.defaultVerify)(recorded, res);
      else res.writeHead(404).end();
    });
  });
  baseUrl = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
  paths(): string[] {
    return this.requests.map((r) => r.url);
  }
}

const fake = new FakePayPal();
beforeAll(() => fake.start());
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.tokenReplies = [];
  fake.verifyReplies = [];
});

const postback = (overrides: Partial<PayPalPostbackDeps> = {}) =>
  createPayPalPostbackVerifier({ baseUrl: fake.baseUrl, clientId: 'client-id', clientSecret: 's3cret', webhookId: WEBHOOK_ID, ...overrides });

const TOKEN_PATH = '/v1/oauth2/token';
const VERIFY_PATH = '/v1/notifications/verify-webhook-signature';

describe('PayPal postback verifier', () => {
  it('knows the sandbox and live API hosts', () => {
    expect(paypalApiBaseUrl('sandbox')).toBe('https://api-m.sandbox.paypal.com');
    expect(paypalApiBaseUrl('live')).toBe('https://api-m.paypal.com');
  });

  it('requests a client-credentials token once and reuses it across verifies', async () => {
    const verifier = postback();
    await expect(verifier.verify(ACTIVATED)).resolves.toBe(true);
    await expect(verifier.verify(event('PAYMENT.SALE.COMPLETED'))).resolves.toBe(true);
    expect(fake.paths()).toEqual([TOKEN_PATH, VERIFY_PATH, VERIFY_PATH]);
    const [token, verify] = fake.requests;
    expect(token!.method).toBe('POST');
    expect(token!.headers.authorization).toBe(`Basic ${Buffer.from('client-id:s3cret').toString('base64')}`);
    expect(token!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(token!.body.toString()).toBe('grant_type=client_credentials');
    expect(verify!.headers.authorization).toBe(`Bearer ${TOKEN.access_token}`);
    expect(verify!.headers['content-type']).toBe('application/json');
  });

  it('sends the raw event bytes verbatim, byte-identical to the fixture request', async () => {
    await postback().verify(ACTIVATED);
    const sent = fake.requests.find((r) => r.url === VERIFY_PATH)!.body;
    expect(sent.equals(fixture('verify-webhook-signature/request.ACTIVATED.json'))).toBe(true);
    expect(sent.indexOf(ACTIVATED.rawBody)).toBeGreaterThan(0);
    expect(JSON.parse(sent.toString()).webhook_id).toBe(WEBHOOK_ID);
  });

  it('does not re-serialize: whitespace, 1.0 and \\u escapes reach PayPal unchanged', async () => {
    const rawBody = Buffer.from('{ "id": "WH-1",\n  "amount": 1.0, "name": "Jos\\u00e9" }\n');
    await postback().verify({ headers: ACTIVATED.headers, rawBody });
    const sent = fake.requests.find((r) => r.url === VERIFY_PATH)!.body;
    expect(sent.subarray(sent.length - rawBody.length - 1).equals(Buffer.concat([rawBody, Buffer.from('}')]))).toBe(true);
  });

  it('answers false on FAILURE', async () => {
    fake.verifyReplies = [json(200, FAILURE)];
    await expect(postback().verify(ACTIVATED)).resolves.toBe(false);
  });

  it.each([
    ['a 500 from verify', () => (fake.verifyReplies = [json(500, '{}')])],
    ['a 500 from the token endpoint', () => (fake.tokenReplies = [json(500, '{}')])],
    ['a 401 from the token endpoint (bad credentials)', () => (fake.tokenReplies = [json(401, '{"error":"invalid_client"}')])],
    ['a token response without access_token', () => (fake.tokenReplies = [json(200, '{}')])],
    ['a 200 verify answer without verification_status', () => (fake.verifyReplies = [json(200, '<html/>')])],
  ])('throws VerificationUnavailableError on %s', async (_name, arrange) => {
    arrange();
    await expect(postback().verify(ACTIVATED)).rejects.toBeInstanceOf(VerificationUnavailableError);
  });

  it('throws VerificationUnavailableError on a timeout', async () => {
    fake.verifyReplies = [() => undefined];
    const err = await rejection(postback({ timeoutMs: 200 }).verify(ACTIVATED));
    expect(err).toBeInstanceOf(VerificationUnavailableError);
  });

  it('refreshes the token once on a 401 from verify', async () => {
    fake.verifyReplies = [json(401, '{}')];
    fake.tokenReplies = [json(200, JSON.stringify({ ...TOKEN, access_token: 'old' })), json(200, JSON.stringify({ ...TOKEN, access_token: 'new' }))];
    await expect(postback().verify(ACTIVATED)).resolves.toBe(true);
    expect(fake.paths()).toEqual([TOKEN_PATH, VERIFY_PATH, TOKEN_PATH, VERIFY_PATH]);
    expect(fake.requests[3]!.headers.authorization).toBe('Bearer new');
  });

  it('gives up (unavailable) when verify answers 401 twice', async () => {
    fake.verifyReplies = [json(401, '{}'), json(401, '{}')];
    await expect(postback().verify(ACTIVATED)).rejects.toBeInstanceOf(VerificationUnavailableError);
    expect(fake.paths()).toEqual([TOKEN_PATH, VERIFY_PATH, TOKEN_PATH, VERIFY_PATH]);
  });

  it('renews the token 60 s before expires_in', async () => {
    let now = 0;
    const verifier = postback({ now: () => now });
    await verifier.verify(ACTIVATED);
    now = (TOKEN.expires_in - 61) * 1000;
    await verifier.verify(ACTIVATED);
    expect(fake.paths().filter((p) => p === TOKEN_PATH)).toHaveLength(1);
    now = (TOKEN.expires_in - 60) * 1000;
    await verifier.verify(ACTIVATED);
    expect(fake.paths().filter((p) => p === TOKEN_PATH)).toHaveLength(2);
  });

  it.each([
    ['a second webhook_id smuggled after a value', '1,"webhook_id":"ATTACKER"'],
    ['a JSON array', '[1]'],
    ['not JSON', 'grant_type=client_credentials'],
  ])('answers false for a body that is not one JSON object (%s) without calling PayPal', async (_name, body) => {
    await expect(postback().verify({ headers: ACTIVATED.headers, rawBody: Buffer.from(body) })).resolves.toBe(false);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('PayPal verifier with the postback fallback', () => {
  const unreachable = async (): Promise<string> => {
    throw new Error('connect ETIMEDOUT');
  };

  it('uses the postback when the certificate cannot be fetched, and accepts on SUCCESS', async () => {
    const { verifier, fetched } = testVerifier({ postback: postback() }, unreachable);
    await expect(verifier.verify(ACTIVATED)).resolves.toBeUndefined();
    expect(fetched).toHaveLength(1);
    expect(fake.paths()).toEqual([TOKEN_PATH, VERIFY_PATH]);
  });

  it('uses the postback when the fetched certificate cannot be parsed', async () => {
    const { verifier } = testVerifier({ postback: postback() }, async () => 'upstream error');
    await expect(verifier.verify(ACTIVATED)).resolves.toBeUndefined();
    expect(fake.paths()).toEqual([TOKEN_PATH, VERIFY_PATH]);
  });

  it('rejects with WebhookSignatureError when the postback answers FAILURE', async () => {
    fake.verifyReplies = [json(200, FAILURE)];
    const { verifier } = testVerifier({ postback: postback() }, unreachable);
    const err = await rejection(verifier.verify(ACTIVATED));
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect(err.message).toMatch(/FAILURE/);
  });

  it('rejects with VerificationUnavailableError when the postback answers 500', async () => {
    fake.verifyReplies = [json(500, '{}')];
    const { verifier } = testVerifier({ postback: postback() }, unreachable);
    await expect(verifier.verify(ACTIVATED)).rejects.toBeInstanceOf(VerificationUnavailableError);
  });

  it('rejects with VerificationUnavailableError when there is no postback', async () => {
    const { verifier } = testVerifier({}, unreachable);
    await expect(verifier.verify(ACTIVATED)).rejects.toBeInstanceOf(VerificationUnavailableError);
  });

  it('never asks the postback about a bad signature, an untrusted chain or a bad cert URL', async () => {
    const tampered = Buffer.from(ACTIVATED.rawBody.toString().replace('"9.99"', '"9.98"'));
    const badSignature = testVerifier({ postback: postback() }, async () => TEST_LEAF_PEM);
    await expect(badSignature.verifier.verify({ headers: ACTIVATED.headers, rawBody: tampered })).rejects.toThrow(/signature does not match/);

    const unrelatedAnchor = new X509Certificate(fixture('real-signed/2015-05-18_PAYMENT.SALE.COMPLETED/cert.pem'));
    const untrusted = testVerifier({ postback: postback(), trustAnchors: [unrelatedAnchor] });
    await expect(untrusted.verifier.verify(ACTIVATED)).rejects.toThrow(/does not chain/);

    const offDomain = { ...ACTIVATED.headers, 'paypal-cert-url': 'https://evil.example/v1/notifications/certs/X' };
    const badUrl = testVerifier({ postback: postback() }, unreachable);
    await expect(badUrl.verifier.verify({ headers: offDomain, rawBody: ACTIVATED.rawBody })).rejects.toBeInstanceOf(WebhookSignatureError);

    expect(fake.requests).toHaveLength(0);
  });
});
