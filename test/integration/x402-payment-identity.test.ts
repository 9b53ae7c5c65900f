import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme as ExactEvmClientScheme } from '@x402/evm/exact/client';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startFakeFacilitator, type FakeFacilitator } from '../helpers/fake-x402-facilitator';
import { recordSensitiveHeaders } from '../helpers/run-log';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
const BITCOIN_LISTED = '123WBUDmSJv4GctdVEz6Qq6z8nXSKrJ4KX'; // OFAC Hydra Market, data/risk/sanctions_ofac.csv
const REPORT_TIMEOUT_MS = 3000;

/** The same ECDSA signature with its last byte as yParity (0/1) instead of v (27/28), or back: both recover alike. */
function reencoded(signature: Hex): Hex {
  const v = Number.parseInt(signature.slice(130), 16);
  return `${signature.slice(0, 130)}${(v >= 27 ? v - 27 : v + 27).toString(16).padStart(2, '0')}` as Hex;
}

/**
 * The claim that makes one x402 payment buy one report is keyed on the payment's identity on chain, for each method
 * the exact scheme accepts: EIP-3009 (token, authorizer, nonce) and Permit2 (Permit2, owner, nonce). A remote
 * facilitator stands in for CDP (it verifies signatures and marks nonces used, with no chain); Postgres, Temporal
 * and the API are real. A report that times out has its workflow cancelled.
 */
describe('x402 payment identity and abandoned reports (remote facilitator)', () => {
  let facilitator: FakeFacilitator;
  let stack: TestStack;
  let esplora: Server;
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const payer = privateKeyToAccount(generatePrivateKey());
  const url = (kind: string) => `${stack.api.url}/api/v1/x402/${kind}/report`;

  beforeAll(async () => {
    facilitator = await startFakeFacilitator();
    // An Esplora that takes every request and never answers: a bitcoin report outlives X402_REPORT_TIMEOUT_MS.
    esplora = createServer(() => undefined);
    await new Promise<void>((resolve) => esplora.listen(0, '127.0.0.1', resolve));
    stack = await startTestStack({
      env: {
        X402_PAY_TO: payTo,
        X402_FACILITATOR_URL: facilitator.url,
        X402_REPORT_TIMEOUT_MS: String(REPORT_TIMEOUT_MS),
        BITCOIN_ESPLORA_URL: `http://127.0.0.1:${(esplora.address() as AddressInfo).port}`,
      },
    });
  }, 60_000);
  afterAll(async () => {
    await stack.stop();
    esplora.closeAllConnections();
    await new Promise((resolve) => esplora.close(resolve));
    await facilitator.stop();
  });

  const post = (kind: string, body: unknown, payment?: PaymentPayload) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (payment) headers['payment-signature'] = encodePaymentSignatureHeader(payment);
    recordSensitiveHeaders(headers);
    return fetch(url(kind), { method: 'POST', headers, body: JSON.stringify(body) });
  };
  const challenge = async (kind: string, body: unknown): Promise<PaymentRequired> =>
    decodePaymentRequiredHeader((await post(kind, body)).headers.get('payment-required') as string);

  /** An EIP-3009 payment as @x402/fetch builds it (USDC's transferWithAuthorization). */
  async function eip3009Payment(kind: string, body: unknown): Promise<PaymentPayload> {
    return new x402Client()
      .register('eip155:8453', new ExactEvmClientScheme(payer))
      .createPaymentPayload(await challenge(kind, body));
  }

  /** A Permit2 payment for the same requirements, as a client of a Permit2 token signs it (exact scheme). */
  async function permit2Payment(kind: string, body: unknown): Promise<PaymentPayload> {
    const required = await challenge(kind, body);
    const accepted = required.accepts[0]!;
    const { payload } = await new ExactEvmClientScheme(payer).createPaymentPayload(2, {
      ...accepted,
      extra: { ...accepted.extra, assetTransferMethod: 'permit2' },
    });
    return { x402Version: 2, resource: required.resource, accepted, payload };
  }

  /** The x402 report workflows this stack started since `since`. */
  async function reportWorkflows(since: Date) {
    const query = `TaskQueue = "${stack.config.TEMPORAL_TASK_QUEUE}" AND WorkflowType = "x402ReportWorkflow"`;
    const found: string[] = [];
    for await (const w of stack.temporal.workflow.list({ query })) if (w.startTime >= since) found.push(w.workflowId);
    return found;
  }

  test('when one payer makes two Permit2 payments (two nonces), then each buys its report and settles', async () => {
    const body = { chain: 'ethereum', address: SANCTIONED };
    const first = await post('kya', body, await permit2Payment('kya', body));
    const second = await post('kya', body, await permit2Payment('kya', body));

    expect([first.status, second.status]).toEqual([200, 200]);
    expect((await second.json()).data).toMatchObject({ risk_level: 'HIGH', risk_score: 100 });
    expect(facilitator.settled.filter((s) => s.method === 'permit2' && s.payer === payer.address)).toHaveLength(2);
  });

  test.each([
    [
      'EIP-3009',
      eip3009Payment,
      (p: any) => ({
        ...p,
        payload: {
          signature: reencoded(p.payload.signature),
          authorization: {
            ...p.payload.authorization,
            from: p.payload.authorization.from.toLowerCase(),
            nonce: `0x${p.payload.authorization.nonce.slice(2).toUpperCase()}`,
          },
          memo: 'sent again',
        },
      }),
    ],
    [
      'Permit2',
      permit2Payment,
      (p: any) => ({
        ...p,
        payload: {
          signature: reencoded(p.payload.signature),
          permit2Authorization: {
            ...p.payload.permit2Authorization,
            from: p.payload.permit2Authorization.from.toLowerCase(),
            nonce: `0x${BigInt(p.payload.permit2Authorization.nonce).toString(16)}`,
          },
          memo: 'sent again',
        },
      }),
    ],
  ])(
    'when a paid %s authorization is sent again, encoded otherwise (signature v, letter case, nonce spelling, an ' +
      'extra field), then it is the same payment: 402 DUPLICATE_PAYMENT, no second report, one settlement',
    async (_method, pay, variant) => {
      const body = { chain: 'ethereum', address: SANCTIONED };
      const original = await pay('kya', body);
      const since = new Date();
      const settledBefore = facilitator.settled.length;

      const first = await post('kya', body, original);
      const again = await post('kya', body, variant(original) as PaymentPayload);

      expect(first.status).toBe(200);
      expect(again.status).toBe(402);
      expect(await again.json()).toMatchObject({ success: false, code: 'DUPLICATE_PAYMENT' });
      expect(facilitator.settled.length - settledBefore).toBe(1);
      expect(await reportWorkflows(since)).toHaveLength(1);
    },
  );

  test('when the two encodings of one Permit2 payment arrive at once, then one report and one settlement', async () => {
    const body = { chain: 'ethereum', address: SANCTIONED };
    const original = await permit2Payment('kya', body);
    const variant = {
      ...original,
      payload: { ...original.payload, signature: reencoded(original.payload.signature as Hex) },
    };
    const settledBefore = facilitator.settled.length;

    const answers = await Promise.all([post('kya', body, original), post('kya', body, variant)]);

    expect(answers.map((a) => a.status).sort()).toEqual([200, 402]);
    expect(facilitator.settled.length - settledBefore).toBe(1);
  });

  test(
    'when a payload carries both an EIP-3009 and a Permit2 authorization, then it is refused unclaimed ' +
      '(which one would settle is not the service to guess) and nothing settles',
    async () => {
      const body = { chain: 'ethereum', address: SANCTIONED };
      const permit2 = await permit2Payment('kya', body);
      const eip3009 = await eip3009Payment('kya', body);
      const settledBefore = facilitator.settled.length;

      const res = await post('kya', body, {
        ...permit2,
        payload: { ...permit2.payload, authorization: (eip3009.payload as any).authorization },
      });

      expect(res.status).toBe(402);
      expect(await res.json()).toMatchObject({ code: 'PAYMENT_REJECTED', reason: 'unsupported_payment_method' });
      expect(facilitator.settled.length).toBe(settledBefore);
    },
  );

  test('when a paid report outlives X402_REPORT_TIMEOUT_MS, then 504 REPORT_TIMEOUT, nothing settles, ' +
    'and its workflow is cancelled rather than left running', async () => {
    const body = { chain: 'bitcoin', address: BITCOIN_LISTED };
    const payment = await eip3009Payment('kya', body);
    const since = new Date();
    const settledBefore = facilitator.settled.length;

    const res = await post('kya', body, payment);

    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ success: false, code: 'REPORT_TIMEOUT' });
    expect(facilitator.settled.length).toBe(settledBefore);
    const [workflowId] = await reportWorkflows(since);
    const handle = stack.temporal.workflow.getHandle(workflowId!);
    // Without the cancel it would run on until its crawl deadline (CRAWL_TIMEOUT_DEFAULT_MS, 8 s) and complete.
    const deadline = Date.now() + 3000;
    let status = (await handle.describe()).status.name;
    while (status === 'RUNNING' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await handle.describe()).status.name;
    }
    expect(status).toBe('CANCELLED');
  }, 20_000);
});
