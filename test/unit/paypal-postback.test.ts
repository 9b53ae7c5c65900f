import { VerificationUnavailableError } from '../../src/billing/paypal/errors';
import { paypalApiBaseUrl, type PayPalPostbackDeps } from '../../src/billing/paypal/postback';
import { FAILURE, json, postbackFor, TOKEN, TOKEN_PATH, useFakePayPal, VERIFY_PATH } from './paypal-fake-api';
import { event, fixture, rejection, WEBHOOK_ID } from './paypal-fixtures';

const ACTIVATED = event('BILLING.SUBSCRIPTION.ACTIVATED');
const fake = useFakePayPal();
const postback = (overrides: Partial<PayPalPostbackDeps> = {}) => postbackFor(fake, overrides);

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
    expect(sent.subarray(sent.length - rawBody.length - 1).equals(Buffer.concat([rawBody, Buffer.from('}')]))).toBe(
      true,
    );
  });

  it('answers false on FAILURE', async () => {
    fake.verifyReplies = [json(200, FAILURE)];
    await expect(postback().verify(ACTIVATED)).resolves.toBe(false);
  });

  it.each([
    ['a 500 from verify', () => (fake.verifyReplies = [json(500, '{}')])],
    ['a 500 from the token endpoint', () => (fake.tokenReplies = [json(500, '{}')])],
    [
      'a 401 from the token endpoint (bad credentials)',
      () => (fake.tokenReplies = [json(401, '{"error":"invalid_client"}')]),
    ],
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
    fake.tokenReplies = [
      json(200, JSON.stringify({ ...TOKEN, access_token: 'old' })),
      json(200, JSON.stringify({ ...TOKEN, access_token: 'new' })),
    ];
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
