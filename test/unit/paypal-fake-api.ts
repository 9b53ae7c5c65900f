import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPayPalPostbackVerifier, type PayPalPostbackDeps } from '../../src/billing/paypal/postback';
import { fixtureText, WEBHOOK_ID } from './paypal-fixtures';

export const TOKEN = JSON.parse(fixtureText('verify-webhook-signature/oauth2-token.response.json')) as {
  access_token: string;
  expires_in: number;
};
export const SUCCESS = fixtureText('verify-webhook-signature/response.success.json');
export const FAILURE = fixtureText('verify-webhook-signature/response.failure.json');
export const TOKEN_PATH = '/v1/oauth2/token';
export const VERIFY_PATH = '/v1/notifications/verify-webhook-signature';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Reply = (req: Recorded, res: ServerResponse) => void;
export const json =
  (status: number, body: string): Reply =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);

/** A fake api-m.sandbox.paypal.com: records every request; replies come from the per-path queues, else the defaults. */
export class FakePayPal {
  readonly requests: Recorded[] = [];
  tokenReplies: Reply[] = [];
  verifyReplies: Reply[] = [];
  defaultToken: Reply = json(200, JSON.stringify(TOKEN));
  defaultVerify: Reply = json(200, SUCCESS);
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      this.requests.push(recorded);
      if (recorded.url === TOKEN_PATH) (this.tokenReplies.shift() ?? this.defaultToken)(recorded, res);
      else if (recorded.url === VERIFY_PATH) (this.verifyReplies.shift() ?? this.defaultVerify)(recorded, res);
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

/** One fake per test file, reset before each test. */
export function useFakePayPal(): FakePayPal {
  const fake = new FakePayPal();
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.tokenReplies = [];
    fake.verifyReplies = [];
  });
  return fake;
}

export const postbackFor = (fake: FakePayPal, overrides: Partial<PayPalPostbackDeps> = {}) =>
  createPayPalPostbackVerifier({
    baseUrl: fake.baseUrl,
    clientId: 'client-id',
    clientSecret: 's3cret',
    webhookId: WEBHOOK_ID,
    ...overrides,
  });
