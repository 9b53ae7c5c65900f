import { randomBytes } from 'node:crypto';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme as ExactEvmClientScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startAnvil, type AnvilNode } from '../helpers/anvil';
import { BASE_USDC, installBaseUsdc, mintUsdc, usdcBalance } from '../helpers/base-usdc';
import { recordSensitiveHeaders } from '../helpers/run-log';
import { startTestStack, type TestStack } from '../helpers/test-stack';

// anvil's account #1: the in-process facilitator's hot wallet (pays the gas of transferWithAuthorization).
const FACILITATOR_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
const ONE_USDC = 1_000_000n;

describe('pay-per-use reports over x402 (USDC on a local Base: anvil chain id 8453)', () => {
  let node: AnvilNode;
  let stack: TestStack;
  const payTo = `0x${randomBytes(20).toString('hex')}`;
  const payerKey = generatePrivateKey();
  const payer = privateKeyToAccount(payerKey);

  beforeAll(async () => {
    node = await startAnvil({ chainId: 8453 });
    await installBaseUsdc(node.rpcUrl);
    await mintUsdc(node.rpcUrl, payer.address, 20n * ONE_USDC);
    stack = await startTestStack({
      env: { X402_PAY_TO: payTo, X402_RPC_URL: node.rpcUrl, X402_FACILITATOR_PRIVATE_KEY: FACILITATOR_KEY },
    });
  }, 60_000);
  afterAll(async () => {
    await stack.stop();
    await node.stop();
  });

  const url = (kind: string) => `${stack.api.url}/api/v1/x402/${kind}/report`;
  const post = (kind: string, body: unknown, headers: Record<string, string> = {}) => {
    recordSensitiveHeaders(headers);
    return fetch(url(kind), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  };
  const payingFetch = () =>
    wrapFetchWithPayment(fetch, new x402Client().register('eip155:8453', new ExactEvmClientScheme(payer)));
  const balances = async () => ({
    payer: await usdcBalance(node.rpcUrl, payer.address),
    payTo: await usdcBalance(node.rpcUrl, payTo),
  });
  /** A signed payment for one request, as @x402/fetch would build it from the 402 challenge. */
  async function signedPayment(kind: string, body: unknown): Promise<{ header: string; payload: any }> {
    const challenge = await post(kind, body);
    const required = decodePaymentRequiredHeader(challenge.headers.get('payment-required') as string);
    const payload = await new x402Client()
      .register('eip155:8453', new ExactEvmClientScheme(payer))
      .createPaymentPayload(required);
    return { header: encodePaymentSignatureHeader(payload), payload };
  }

  test(
    'when a report is requested without payment, then ' + '402 carries the challenge in the header and the body',
    async () => {
      const res = await post('kya', { chain: 'ethereum', address: SANCTIONED });
      const body = await res.json();
      expect(res.status).toBe(402);
      expect(body).toMatchObject({
        success: false,
        payTo,
        amount: '1000000',
        asset: BASE_USDC,
        network: 'eip155:8453',
        resource: url('kya'),
      });
      const required = decodePaymentRequiredHeader(res.headers.get('payment-required') as string);
      expect(required.accepts[0]).toMatchObject({
        scheme: 'exact',
        network: 'eip155:8453',
        amount: '1000000',
        payTo,
        asset: BASE_USDC,
        extra: { name: 'USD Coin', version: '2' },
      });
    },
  );

  test(
    'when the @x402/fetch client pays for a KYA report, ' +
      'then 200 with the report and exactly 1.00 USDC moved on chain',
    async () => {
      const before = await balances();
      const res = await payingFetch()(url('kya'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chain: 'ethereum', address: SANCTIONED }),
      });
      const body = await res.json();
      const after = await balances();
      expect(res.status).toBe(200);
      expect(body).toMatchObject({
        success: true,
        x402: {
          payer: payer.address,
          amount: '1000000',
          asset: BASE_USDC,
          network: 'eip155:8453',
          transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        },
        data: { api_type: 'KYA', chain: 'ethereum', risk_level: 'HIGH', risk_score: 100 },
      });
      expect(res.headers.get('payment-response')).toBeTruthy();
      expect([before.payer - after.payer, after.payTo - before.payTo]).toEqual([ONE_USDC, ONE_USDC]);
      const history = await stack.pool.query(
        `SELECT activity_type, source FROM activity_history WHERE lower(user_ref) = lower($1)`,
        [payer.address],
      );
      expect(history.rows).toContainEqual({ activity_type: 'kya', source: 'x402' });
    },
  );

  test(
    'when a report is paid, then its claim names the report by request id: the workflow x402:kya:<that id> ran ' +
      'it, the history entry carries it, and the claim is settled (no longer one a workflow could run under)',
    async () => {
      const res = await payingFetch()(url('kya'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chain: 'ethereum', address: SANCTIONED }),
      });
      expect(res.status).toBe(200);
      const { transaction } = (await res.json()).x402;
      const { rows } = await stack.pool.query(
        'SELECT status, request_id::text AS request_id FROM x402_payments WHERE transaction = $1',
        [transaction],
      );
      expect(rows).toEqual([{ status: 'settled', request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
      const requestId = rows[0].request_id as string;
      const run = await stack.temporal.workflow.getHandle(`x402:kya:${requestId}`).describe();
      expect([run.type, run.status.name]).toEqual(['x402ReportWorkflow', 'COMPLETED']);
      const history = await stack.pool.query(
        'SELECT count(*)::int AS n FROM activity_history WHERE request_id = $1 AND source = $2',
        [requestId, 'x402'],
      );
      expect(history.rows[0].n).toBe(1);
    },
  );

  test(
    'when a KYE report is paid for a known entity, then its profile comes back; ' +
      'an unknown entity is 404 and not charged',
    async () => {
      const paid = await payingFetch()(url('kye'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Garantex' }),
      });
      expect(paid.status).toBe(200);
      expect((await paid.json()).data).toMatchObject({ name: 'GARANTEX EUROPE OU', status: ['sanctioned'] });
      const before = await balances();
      const missing = await payingFetch()(url('kye'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'qqqq zzzz xylophone' }),
      });
      expect(missing.status).toBe(404);
      expect(await balances()).toEqual(before);
    },
  );

  test.each([
    ['kyt', { chain: 'ethereum', txid: 'xyz' }, 'txid'],
    ['kyt', { chain: 'bitcoin', txid: `0x${'a'.repeat(64)}` }, 'txid'],
    ['kya', { chain: 'litecoinz', address: SANCTIONED }, 'chain'],
    ['kya', { chain: 'tron', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', asset: SANCTIONED }, 'asset'],
    ['kye', { name: 'x' }, 'name'],
  ])(
    'when a %s request is invalid (%j), then 400 names %s and nothing is asked or charged',
    async (kind, body, parameter) => {
      const before = await balances();
      const res = await payingFetch()(url(kind), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
      expect(await balances()).toEqual(before);
    },
  );

  test('when a used payment is replayed, then 402 and no second charge', async () => {
    const body = { chain: 'ethereum', address: SANCTIONED };
    const { header } = await signedPayment('kya', body);
    const first = await post('kya', body, { 'payment-signature': header });
    const before = await balances();
    const replay = await post('kya', body, { 'payment-signature': header });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(402);
    expect(await balances()).toEqual(before);
  });

  test('when the same payment is sent twice at once, then one report and one charge', async () => {
    const body = { chain: 'ethereum', address: SANCTIONED };
    const { header } = await signedPayment('kya', body);
    const before = await balances();
    const answers = await Promise.all([
      post('kya', body, { 'payment-signature': header }),
      post('kya', body, { 'payment-signature': header }),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 402]);
    expect(before.payer - (await balances()).payer).toBe(ONE_USDC);
  });

  test.each([
    ['the amount lowered', (p: any) => ({ ...p, accepted: { ...p.accepted, amount: '1' } })],
    [
      'the recipient changed',
      (p: any) => ({ ...p, payload: { ...p.payload, authorization: { ...p.payload.authorization, to: SANCTIONED } } }),
    ],
    [
      'an expired authorization',
      (p: any) => ({
        ...p,
        payload: { ...p.payload, authorization: { ...p.payload.authorization, validBefore: '1' } },
      }),
    ],
    [
      'an under-payment',
      (p: any) => ({ ...p, payload: { ...p.payload, authorization: { ...p.payload.authorization, value: '999999' } } }),
    ],
  ])('when the payment has %s, then 402 says why in words and nothing moves', async (_label, tamper) => {
    const body = { chain: 'ethereum', address: SANCTIONED };
    const { payload } = await signedPayment('kya', body);
    const before = await balances();
    const res = await post('kya', body, { 'payment-signature': encodePaymentSignatureHeader(tamper(payload)) });
    expect(res.status).toBe(402);
    const reason = decodePaymentRequiredHeader(res.headers.get('payment-required')!).error;
    expect(reason).toEqual(expect.any(String));
    expect(await res.json()).toEqual({
      success: false,
      code: 'PAYMENT_REJECTED',
      reason,
      error: `The payment was not accepted (${reason}); nothing was charged`,
    });
    expect(await balances()).toEqual(before);
  });

  test('when PAYMENT-SIGNATURE is not a payment at all, then 402 says so and still carries the challenge', async () => {
    const res = await post('kya', { chain: 'ethereum', address: SANCTIONED }, { 'payment-signature': 'bm90IGpzb24=' });
    expect(res.status).toBe(402);
    expect(decodePaymentRequiredHeader(res.headers.get('payment-required')!).accepts[0]).toMatchObject({
      payTo,
      amount: '1000000',
      network: 'eip155:8453',
    });
    expect(await res.json()).toMatchObject({
      success: false,
      code: 'PAYMENT_REJECTED',
      reason: 'unreadable_payment_header',
    });
  });

  test('when a browser asks without payment, then it gets the HTML paywall as HTML, not a JSON string', async () => {
    const res = await fetch(url('kya'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/html,application/xhtml+xml',
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131',
      },
      body: JSON.stringify({ chain: 'ethereum', address: SANCTIONED }),
    });
    expect(res.status).toBe(402);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toMatch(/^\s*<!DOCTYPE html>/i);
  });
});

describe('pay-per-use reports without a facilitator', () => {
  test('when no facilitator is configured, then the service runs and the report routes answer 503', async () => {
    const stack = await startTestStack({ worker: false });
    try {
      const res = await stack.http('POST', '/api/v1/x402/kya/report', {
        body: { chain: 'ethereum', address: SANCTIONED },
      });
      expect([res.status, res.body.code]).toEqual([503, 'PAYMENTS_NOT_CONFIGURED']);
    } finally {
      await stack.stop();
    }
  });
});
