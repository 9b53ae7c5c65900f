import { randomBytes, randomUUID } from 'node:crypto';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { ExactEvmScheme as ExactEvmClientScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { payfastEventId } from '../../src/billing/workflow-ids';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startAnvil, type AnvilNode } from '../helpers/anvil';
import { installBaseUsdc, mintUsdc } from '../helpers/base-usdc';
import { completeItn, processedEvent, signedItn } from '../helpers/billing';
import { documentValidator, type DocumentValidator } from '../helpers/openapi-validator';
import { startReplayServer, type Cassette, type ReplayServer } from '../helpers/replay-server';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';
import { createTeam, type TestTeam } from '../helpers/teams';

type TeamMember = TestTeam['members'][number];
import { clerkDelivery, paypalVariant, signPayPal, testPayPalVerifier, WEBHOOK_ENV } from '../helpers/webhooks';

/**
 * Every route driven through a real stack (api + worker + Postgres + Temporal, x402 on a local Base)
 * for its success answer and its main errors; each answer is checked against what the OpenAPI document
 * says for that path, method and status (ajv 2020 + formats), and a status the document does not list
 * fails. A second stack without a worker, payments or webhook secrets gives the "not configured" and
 * "still queued" answers.
 */

const FACILITATOR_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'; // anvil account #1
const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
const ETH_TX = '0x520a66112467b4b79016c2a62658b56e8f78049bae8bf6f4ce4bf39ec2d75ba8';
const HISTORY_WEBHOOK_SECRET = 'openapi-activity-secret';
const KYA = { chain: 'ethereum', address: SANCTIONED, reference_id: 'openapi-1' };

// A real bitcoin transaction (test/fixtures/chains) served by the strict replay server, so KYT completes;
// an unknown txid is esplora's 404, so KYT fails with TRANSACTION_NOT_FOUND (as in chains-e2e.test.ts).
const BTC_TX = '19c6cd6b7b8a91e1a63d759eedd2818877a624771d38e00c3ffcedfdd09afc50';
const BTC_UNKNOWN_TX = 'ab'.repeat(32);
const RECIPIENT = '2NEhVzd2Lom5g7ZF5K1qYrgZLpXecniqHcE';
const SENDER = 'tb1q2ajf7llsxvff7r0fpm42tmd5nz43cr8mg85f3788rm4cy7uwajdsusr2mg';
const fixture = (...p: string[]) =>
  JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'chains', ...p), 'utf8'));
function bitcoinCassettes(): Cassette[] {
  const tx = fixture('bitcoin', 'esplora', `tx_${BTC_TX}.json`);
  const utxos = fixture('bitcoin', 'esplora', `address_${RECIPIENT}_utxo.json`);
  const get = (p: string, body: unknown, status?: number): Cassette => ({
    request: { method: 'GET', path: `/bitcoin${p}` },
    response: { body, ...(status ? { status } : {}) },
  });
  return [
    get(`/tx/${BTC_TX}`, tx),
    get(`/address/${RECIPIENT}`, {
      address: RECIPIENT,
      chain_stats: {
        funded_txo_count: 1,
        funded_txo_sum: utxos[0].value,
        spent_txo_count: 0,
        spent_txo_sum: 0,
        tx_count: 1,
      },
      mempool_stats: { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 },
    }),
    get(`/address/${RECIPIENT}/txs/chain`, [tx]),
    get(`/address/${SENDER}/txs/chain`, [tx]),
    get(`/tx/${BTC_UNKNOWN_TX}`, 'Transaction not found', 404),
  ];
}

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}
interface Request {
  key?: string;
  bearer?: string;
  headers?: Record<string, string>;
  /** JSON-serialised unless a string or bytes. */
  body?: unknown;
}

describe('real answers against the OpenAPI document', () => {
  let node: AnvilNode;
  let replay: ReplayServer;
  let stack: TestStack;
  let bare: TestStack;
  let v: DocumentValidator;
  let admin: { id: string; key: string };
  let payfastSourceAllowed = true;
  const payTo = `0x${randomBytes(20).toString('hex')}`;
  const payer = privateKeyToAccount(generatePrivateKey());

  beforeAll(async () => {
    node = await startAnvil({ chainId: 8453 });
    await installBaseUsdc(node.rpcUrl);
    await mintUsdc(node.rpcUrl, payer.address, 20_000_000n);
    replay = await startReplayServer(bitcoinCassettes());
    stack = await startTestStack({
      env: {
        ...WEBHOOK_ENV,
        ACTIVITY_WEBHOOK_SECRET: HISTORY_WEBHOOK_SECRET,
        BITCOIN_ESPLORA_URL: `${replay.url}/bitcoin`,
        X402_PAY_TO: payTo,
        X402_RPC_URL: node.rpcUrl,
        X402_FACILITATOR_PRIVATE_KEY: FACILITATOR_KEY,
      },
      verifiers: { paypalVerifier: testPayPalVerifier(), isPayFastSource: async () => payfastSourceAllowed },
    });
    bare = await startTestStack({
      worker: false,
      env: { SYNC_ANALYZE_WAIT_MS: '1000', PAYFAST_REFUND_WAIT_MS: '300' },
    });
    v = await documentValidator(await (await fetch(`${stack.api.url}/api/v1/openapi.json`)).json());
    admin = await stack.createUser({
      role: 'admin',
      credits: 40,
      clerkUserId: `user_oa${randomUUID().replace(/-/g, '').slice(0, 20)}`,
    });
  }, 120_000);
  afterAll(async () => {
    await bare?.stop();
    await stack?.stop();
    await node?.stop();
    await replay?.close();
  });

  async function send(target: TestStack, method: string, path: string, r: Request = {}): Promise<Answer> {
    const headers: Record<string, string> = {
      ...(r.key ? { 'x-api-key': r.key } : {}),
      ...(r.bearer ? { authorization: `Bearer ${r.bearer}` } : {}),
      ...(r.body !== undefined && typeof r.body !== 'string' && !Buffer.isBuffer(r.body)
        ? { 'content-type': 'application/json' }
        : {}),
      ...r.headers,
    };
    const body =
      r.body === undefined
        ? undefined
        : typeof r.body === 'string'
          ? r.body
          : Buffer.isBuffer(r.body)
            ? new Uint8Array(r.body)
            : JSON.stringify(r.body);
    const res = await fetch(`${target.api.url}${path}`, { method, headers, body });
    return parsed(res);
  }
  async function parsed(res: Response): Promise<Answer> {
    const text = await res.text();
    let body: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
    return { status: res.status, body, headers: res.headers };
  }
  /** Sends, expects `status`, and checks the answer against the document. */
  async function expectAnswer(
    status: number,
    method: string,
    path: string,
    r: Request = {},
    target: TestStack = stack,
  ): Promise<Answer> {
    const answer = await send(target, method, path, r);
    expect([method, path, answer.status, answer.status === status ? null : answer.body]).toEqual([
      method,
      path,
      status,
      null,
    ]);
    v.expectMatches(method, path, answer.status, answer.body, answer.headers);
    return answer;
  }

  describe('screening', () => {
    let requestId: string;

    test(
      'when a KYA job is submitted and polled, then 202, then the completed job and its full ' +
        'response match the document',
      async () => {
        const submitted = await expectAnswer(202, 'POST', '/api/v1/kyt/job', { key: admin.key, body: KYA });
        requestId = submitted.body.data.request_id;
        await pollUntilDone(stack, admin.key, requestId);
        const polled = await expectAnswer(200, 'GET', `/api/v1/kyt/job/${requestId}`, { key: admin.key });
        expect(polled.body.data.status).toBe('completed');
        const full = await expectAnswer(200, 'GET', `/api/v1/kyt/job/${requestId}/fullresponse`, { bearer: admin.key });
        expect(full.body.data.response.hits.length).toBeGreaterThan(0);
      },
    );

    test('when a job is scored under a policy and rescored, then the answers match the document', async () => {
      const put = await stack.http('PUT', '/api/v1/policies/openapi-strict', {
        key: admin.key,
        body: { severe_categories: ['gambling'] },
      });
      expect([200, 201]).toContain(put.status);
      const submitted = await expectAnswer(202, 'POST', '/api/v1/kyt/job', {
        key: admin.key,
        body: { ...KYA, policy_id: 'openapi-strict' },
      });
      const id = submitted.body.data.request_id;
      await pollUntilDone(stack, admin.key, id);
      const full = await expectAnswer(200, 'GET', `/api/v1/kyt/job/${id}/fullresponse`, { key: admin.key });
      expect(full.body.data.response.policy).toMatchObject({ id: 'openapi-strict', version: 1 });
      const rescored = await expectAnswer(200, 'POST', `/api/v1/kyt/job/${id}/rescore`, {
        key: admin.key,
        body: { policy_id: 'standard' },
      });
      expect(rescored.body.data.policy).toBeNull();
      await expectAnswer(404, 'POST', `/api/v1/kyt/job/${id}/rescore`, { key: admin.key, body: { policy_id: 'none' } });
      await expectAnswer(400, 'POST', `/api/v1/kyt/job/${id}/rescore`, { key: admin.key, body: { policy_id: 5 } });
      await expectAnswer(404, 'POST', '/api/v1/kyt/job', { key: admin.key, body: { ...KYA, policy_id: 'none' } });
    });

    test(
      'when a KYT job completes and another fails (unknown ' + 'transaction), then both polls match the document',
      async () => {
        const kyt = await expectAnswer(202, 'POST', '/api/v1/kyt/job', {
          key: admin.key,
          body: { chain: 'bitcoin', txid: BTC_TX },
        });
        await pollUntilDone(stack, admin.key, kyt.body.data.request_id);
        const full = await expectAnswer(200, 'GET', `/api/v1/kyt/job/${kyt.body.data.request_id}/fullresponse`, {
          key: admin.key,
        });
        expect([
          full.body.data.status,
          full.body.data.response.api_type,
          full.body.data.response.transaction?.hash,
        ]).toEqual(['completed', 'KYT', BTC_TX]);
        await expectAnswer(200, 'GET', `/api/v1/kyt/job/${kyt.body.data.request_id}`, { key: admin.key });

        const unknown = await expectAnswer(202, 'POST', '/api/v1/kyt/job', {
          key: admin.key,
          body: { chain: 'bitcoin', txid: BTC_UNKNOWN_TX },
        });
        await pollUntilDone(stack, admin.key, unknown.body.data.request_id);
        const failed = await expectAnswer(200, 'GET', `/api/v1/kyt/job/${unknown.body.data.request_id}`, {
          key: admin.key,
        });
        expect([failed.body.data.status, failed.body.data.error?.code]).toEqual(['failed', 'TRANSACTION_NOT_FOUND']);
        await expectAnswer(200, 'GET', `/api/v1/kyt/job/${unknown.body.data.request_id}/fullresponse`, {
          key: admin.key,
        });
        await expectAnswer(422, 'POST', '/api/v1/kyt/analyze', {
          key: admin.key,
          body: { chain: 'bitcoin', txid: BTC_UNKNOWN_TX },
        });
        expect(replay.misses).toEqual([]);
      },
    );

    test('when no worker runs the job, then the poll answers a queued job that matches the document', async () => {
      const submitted = await expectAnswer(202, 'POST', '/api/v1/kyt/job', { key: admin.key, body: KYA }, bare);
      const polled = await expectAnswer(
        200,
        'GET',
        `/api/v1/kyt/job/${submitted.body.data.request_id}`,
        { key: admin.key },
        bare,
      );
      expect(polled.body.data.status).toBe('queued');
    });

    test('when a submit is refused, then each 400/401/402/413/415/422 matches its documented shape', async () => {
      const poor = await stack.createUser();
      await expectAnswer(400, 'POST', '/api/v1/kyt/job', {
        key: admin.key,
        body: { chain: 'litecoinz', address: SANCTIONED },
      });
      await expectAnswer(400, 'POST', '/api/v1/kyt/job', {
        key: admin.key,
        body: '{"chain":',
        headers: { 'content-type': 'application/json' },
      });
      const flat = await expectAnswer(400, 'POST', '/api/v1/kyt/job', {
        key: admin.key,
        body: '{}',
        headers: { 'content-type': 'application/json', 'content-encoding': 'br' },
      });
      expect(flat.body.code).toBe('BAD_REQUEST');
      await expectAnswer(401, 'POST', '/api/v1/kyt/job', { body: KYA });
      const broke = await expectAnswer(402, 'POST', '/api/v1/kyt/job', { key: poor.key, body: KYA });
      expect(broke.body.code).toBe('INSUFFICIENT_CREDITS');
      await expectAnswer(413, 'POST', '/api/v1/kyt/job', {
        key: admin.key,
        body: { ...KYA, reference_id: 'r'.repeat(300_000) },
      });
      await expectAnswer(415, 'POST', '/api/v1/kyt/job', {
        key: admin.key,
        body: '{}',
        headers: { 'content-type': 'application/json; charset=latin1' },
      });
      await expectAnswer(422, 'POST', '/api/v1/kyt/job', { key: admin.key, body: { chain: 'ethereum', txid: ETH_TX } });
    });

    test('when a job that does not exist is polled, then 404 and 401 match the document', async () => {
      await expectAnswer(404, 'GET', `/api/v1/kyt/job/${randomUUID()}`, { key: admin.key });
      await expectAnswer(404, 'GET', '/api/v1/kyt/job/not-a-uuid/fullresponse', { key: admin.key });
      await expectAnswer(401, 'GET', `/api/v1/kyt/job/${requestId}`);
      await expectAnswer(401, 'GET', `/api/v1/kyt/job/${requestId}/fullresponse`);
    });

    test(
      'when the prices are read, then 200 and 401 match the document, and the rule is the one a full response ' +
        'states',
      async () => {
        const pricing = await expectAnswer(200, 'GET', '/api/v1/kyt/pricing', { key: admin.key });
        const full = await expectAnswer(200, 'GET', `/api/v1/kyt/job/${requestId}/fullresponse`, { key: admin.key });
        expect(pricing.body.data.analysis.rule).toBe(full.body.data.response.cost.rule);
        await expectAnswer(401, 'GET', '/api/v1/kyt/pricing');
      },
    );

    test(
      'when the deprecated synchronous endpoints are called, then 200, 202 (wait ran out), 400, 401, 402 ' +
        'and 422 match the document',
      async () => {
        const done = await expectAnswer(200, 'POST', '/api/v1/kya/analyze', {
          key: admin.key,
          body: { chain: 'tron', address: 'TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz' },
        });
        expect(done.headers.get('deprecation')).toBe('true');
        await expectAnswer(200, 'POST', '/api/v1/kyt/analyze', { key: admin.key, body: KYA });
        await expectAnswer(202, 'POST', '/api/v1/kyt/analyze', { key: admin.key, body: KYA }, bare);
        await expectAnswer(202, 'POST', '/api/v1/kya/analyze', { key: admin.key, body: KYA }, bare);
        await expectAnswer(400, 'POST', '/api/v1/kya/analyze', { key: admin.key, body: { chain: 'ethereum' } });
        await expectAnswer(401, 'POST', '/api/v1/kyt/analyze', { body: KYA });
        await expectAnswer(402, 'POST', '/api/v1/kya/analyze', { key: (await stack.createUser()).key, body: KYA });
        await expectAnswer(422, 'POST', '/api/v1/kyt/analyze', {
          key: admin.key,
          body: { chain: 'ethereum', txid: ETH_TX },
        });
      },
    );
  });

  describe('credits, keys and the caller', () => {
    test(
      'when credits are granted, then 200, and a reused key (409), an unknown user (404), a non-admin (403), a ' +
        'bad body (400) and no key (401) match the document',
      async () => {
        const user = await stack.createUser();
        const idempotencyKey = `oa-${randomUUID()}`;
        await expectAnswer(200, 'POST', '/api/v1/credits/grant', {
          key: admin.key,
          body: { userId: user.id, amount: 3, idempotencyKey },
        });
        await expectAnswer(409, 'POST', '/api/v1/credits/grant', {
          key: admin.key,
          body: { userId: user.id, amount: 4, idempotencyKey },
        });
        await expectAnswer(404, 'POST', '/api/v1/credits/grant', {
          key: admin.key,
          body: { userId: 'user_nobody_here', amount: 1 },
        });
        await expectAnswer(403, 'POST', '/api/v1/credits/grant', {
          key: user.key,
          body: { userId: user.id, amount: 1 },
        });
        await expectAnswer(400, 'POST', '/api/v1/credits/grant', {
          key: admin.key,
          body: { userId: user.id, amount: -1 },
        });
        await expectAnswer(401, 'POST', '/api/v1/credits/grant', { body: { userId: user.id, amount: 1 } });
        await expectAnswer(200, 'GET', '/api/v1/credits/balance', { key: user.key });
        await expectAnswer(401, 'GET', '/api/v1/credits/balance');
        await expectAnswer(200, 'GET', '/api/v1/me', { key: admin.key });
        await expectAnswer(401, 'GET', '/api/v1/me', { bearer: 'cs_live_not-a-real-key' });
      },
    );

    test('when API keys are created, listed, limited and revoked, then every answer matches the document', async () => {
      const user = await stack.createUser();
      const created = await expectAnswer(201, 'POST', '/api/v1/api-keys', { key: user.key, body: { name: 'openapi' } });
      await expectAnswer(201, 'POST', '/api/v1/api-keys', { key: user.key });
      await expectAnswer(400, 'POST', '/api/v1/api-keys', { key: user.key, body: { name: '   ' } });
      await expectAnswer(401, 'POST', '/api/v1/api-keys', { body: { name: 'x' } });
      await expectAnswer(200, 'GET', '/api/v1/api-keys', { key: user.key });
      await expectAnswer(401, 'GET', '/api/v1/api-keys');
      const id = created.body.data.id;
      await expectAnswer(200, 'PUT', `/api/v1/api-keys/${id}/rate-limit`, {
        key: admin.key,
        body: { tier: 'enterprise', requestsPerMinute: 1200 },
      });
      await expectAnswer(200, 'PUT', `/api/v1/api-keys/${id}/rate-limit`, { key: admin.key, body: { tier: 'pro' } });
      await expectAnswer(400, 'PUT', `/api/v1/api-keys/${id}/rate-limit`, {
        key: admin.key,
        body: { tier: 'pro', requestsPerMinute: 5 },
      });
      await expectAnswer(403, 'PUT', `/api/v1/api-keys/${id}/rate-limit`, { key: user.key, body: { tier: 'pro' } });
      await expectAnswer(404, 'PUT', `/api/v1/api-keys/${randomUUID()}/rate-limit`, {
        key: admin.key,
        body: { tier: 'pro' },
      });
      await expectAnswer(401, 'PUT', `/api/v1/api-keys/${id}/rate-limit`, { body: { tier: 'pro' } });
      await expectAnswer(200, 'DELETE', `/api/v1/api-keys/${id}`, { key: user.key });
      await expectAnswer(404, 'DELETE', `/api/v1/api-keys/${id}`, { key: admin.key });
      await expectAnswer(401, 'DELETE', `/api/v1/api-keys/${id}`);
    });

    test(
      'when a key lacks the scope an operation names, or its account is at the key cap, then 403 and 409 ' +
        'match the document',
      async () => {
        const user = await stack.createUser({ credits: 1 });
        const reader = await expectAnswer(201, 'POST', '/api/v1/api-keys', {
          key: user.key,
          body: { name: 'reader', scopes: ['read'] },
        });
        expect(reader.body.data.scopes).toEqual(['read']);
        const readOnly = reader.body.data.key as string;
        const scoped = await expectAnswer(403, 'POST', '/api/v1/kyt/job', { key: readOnly, body: KYA });
        expect(scoped.body.code).toBe('INSUFFICIENT_SCOPE');
        await expectAnswer(403, 'POST', '/api/v1/api-keys', { key: readOnly, body: {} });
        await expectAnswer(403, 'GET', '/api/v1/market-data/candles?symbol=ALGO-USDT&interval=1d', {
          key: (await expectAnswer(201, 'POST', '/api/v1/api-keys', { key: user.key, body: { scopes: ['keys'] } })).body
            .data.key,
        });
        await expectAnswer(200, 'GET', '/api/v1/me', { key: readOnly });
        // An admin key without the billing scope: the admin-only grant answers the scope refusal.
        const adminKeys = await expectAnswer(201, 'POST', '/api/v1/api-keys', {
          key: admin.key,
          body: { scopes: ['read', 'keys'] },
        });
        const grant = await expectAnswer(403, 'POST', '/api/v1/credits/grant', {
          key: adminKeys.body.data.key,
          body: { userId: user.id, amount: 1 },
        });
        expect(grant.body.code).toBe('INSUFFICIENT_SCOPE');
        await expectAnswer(200, 'DELETE', `/api/v1/api-keys/${adminKeys.body.data.id}`, { key: admin.key });
        for (let active = 3; active < 20; active++)
          await expectAnswer(201, 'POST', '/api/v1/api-keys', { key: user.key });
        const capped = await expectAnswer(409, 'POST', '/api/v1/api-keys', { key: user.key });
        expect(capped.body.code).toBe('API_KEY_LIMIT_REACHED');
      },
    );
  });

  describe('teams', () => {
    test(
      'when the team is read, a role changed and a member removed, then 200, 400, 401, 403, 404 and 409 match ' +
        'the document',
      async () => {
        const team = await createTeam(stack, { roles: ['admin', 'analyst', 'approver'] });
        const [lead, analyst, approver] = team.members as [TeamMember, TeamMember, TeamMember];
        const member = (id: string) => `/api/v1/team/members/${id}`;
        await expectAnswer(200, 'GET', '/api/v1/team', { key: analyst.key });
        await expectAnswer(401, 'GET', '/api/v1/team');
        await expectAnswer(200, 'PUT', member(analyst.memberId), { key: lead.key, body: { role: 'approver' } });
        await expectAnswer(400, 'PUT', member(analyst.memberId), { key: lead.key, body: { role: 'owner' } });
        const refused = await expectAnswer(403, 'PUT', member(lead.memberId), {
          key: approver.key,
          body: { role: 'analyst' },
        });
        expect(refused.body.code).toBe('INSUFFICIENT_TEAM_ROLE');
        await expectAnswer(404, 'PUT', member(randomUUID()), { key: lead.key, body: { role: 'analyst' } });
        await expectAnswer(409, 'PUT', member(lead.memberId), { key: lead.key, body: { role: 'analyst' } });
        await expectAnswer(401, 'PUT', member(lead.memberId), { body: { role: 'analyst' } });
        await expectAnswer(403, 'DELETE', member(lead.memberId), { key: analyst.key });
        await expectAnswer(409, 'DELETE', member(lead.memberId), { key: lead.key });
        await expectAnswer(404, 'DELETE', member(randomUUID()), { key: lead.key });
        await expectAnswer(200, 'DELETE', member(approver.memberId), { key: lead.key });
        await expectAnswer(401, 'DELETE', member(approver.memberId));
      },
    );
  });

  describe('cases', () => {
    test('when a case is listed, read, downloaded and acted on, ' +
      'then 200, 400, 401, 403, 404 and 409 match the document', async () => {
      const team = await createTeam(stack, { roles: ['admin', 'analyst', 'approver'], credits: 5 });
      const [lead, analyst, approver] = team.members as [TeamMember, TeamMember, TeamMember];
      const job = async (address: string) => {
        const r = await send(stack, 'POST', '/api/v1/kyt/job', {
          key: analyst.key,
          body: { chain: 'ethereum', address },
        });
        return r.body.data.request_id as string;
      };
      await job('0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c');
      const other = await job(`0x${randomBytes(20).toString('hex')}`);
      let id: string | undefined;
      for (let tries = 0; tries < 100 && !id; tries++) {
        const r = await send(stack, 'GET', '/api/v1/cases', { key: analyst.key });
        id = r.body.data.find((c: { trail_length: number }) => c.trail_length >= 1)?.id;
        if (!id) await new Promise((r) => setTimeout(r, 200));
      }
      const path = `/api/v1/cases/${id}`;
      await expectAnswer(200, 'GET', '/api/v1/cases?state=open&severity=high&assignee=me', { key: analyst.key });
      await expectAnswer(400, 'GET', '/api/v1/cases?state=weird', { key: analyst.key });
      await expectAnswer(401, 'GET', '/api/v1/cases');
      await expectAnswer(200, 'GET', '/api/v1/cases/sla', { key: analyst.key });
      await expectAnswer(200, 'PUT', '/api/v1/cases/sla', {
        key: lead.key,
        body: { low: { assign_within: 3600, decide_within: 7200 } },
      });
      await expectAnswer(400, 'PUT', '/api/v1/cases/sla', { key: lead.key, body: { low: { assign_within: 0 } } });
      await expectAnswer(403, 'PUT', '/api/v1/cases/sla', { key: analyst.key, body: { low: null } });
      await expectAnswer(200, 'GET', path, { key: analyst.key });
      await expectAnswer(404, 'GET', `/api/v1/cases/${randomUUID()}`, { key: analyst.key });
      await expectAnswer(200, 'GET', `${path}/file`, { key: analyst.key });
      await expectAnswer(404, 'GET', `/api/v1/cases/${randomUUID()}/file`, { key: analyst.key });
      await expectAnswer(200, 'POST', `${path}/assign`, { key: analyst.key, body: { assignee_id: 'me' } });
      await expectAnswer(400, 'POST', `${path}/assign`, { key: analyst.key, body: { assignee_id: 'someone' } });
      await expectAnswer(404, 'POST', `/api/v1/cases/${randomUUID()}/assign`, {
        key: analyst.key,
        body: { assignee_id: 'me' },
      });
      await expectAnswer(200, 'POST', `${path}/comment`, { key: analyst.key, body: { text: 'looking' } });
      await expectAnswer(200, 'POST', `${path}/attach`, { key: analyst.key, body: { request_id: other } });
      await expectAnswer(409, 'POST', `${path}/attach`, { key: analyst.key, body: { request_id: other } });
      await expectAnswer(200, 'POST', `${path}/propose`, {
        key: analyst.key,
        body: { disposition: 'false_positive', note: 'same name' },
      });
      await expectAnswer(403, 'POST', `${path}/approve`, { key: analyst.key, body: {} });
      await expectAnswer(200, 'POST', `${path}/reject`, { key: approver.key, body: { note: 'check again' } });
      await expectAnswer(200, 'POST', `${path}/propose`, {
        key: analyst.key,
        body: { disposition: 'false_positive', note: null },
      });
      await expectAnswer(200, 'POST', `${path}/approve`, { key: approver.key, body: {} });
      await expectAnswer(409, 'POST', `${path}/approve`, { key: approver.key, body: {} });
      await expectAnswer(200, 'POST', `${path}/reopen`, { key: analyst.key, body: { note: 'new facts' } });
      await expectAnswer(401, 'POST', `${path}/reopen`, { body: {} });
    }, 60_000);
  });

  describe('billing', () => {
    test(
      'when packages, a PayFast checkout and subscriptions ' + 'are asked for, then every answer matches the document',
      async () => {
        await expectAnswer(200, 'GET', '/api/v1/credits/packages');
        await expectAnswer(201, 'POST', '/api/v1/billing/payfast/checkout', {
          key: admin.key,
          body: { packageId: 'top-up-250' },
        });
        await expectAnswer(404, 'POST', '/api/v1/billing/payfast/checkout', {
          key: admin.key,
          body: { packageId: 'no-such-package' },
        });
        await expectAnswer(400, 'POST', '/api/v1/billing/payfast/checkout', { key: admin.key, body: { packageId: 7 } });
        await expectAnswer(401, 'POST', '/api/v1/billing/payfast/checkout', { body: { packageId: 'basic' } });
        await expectAnswer(
          503,
          'POST',
          '/api/v1/billing/payfast/checkout',
          { key: admin.key, body: { packageId: 'basic' } },
          bare,
        );
        await expectAnswer(401, 'GET', '/api/v1/billing/subscriptions');
      },
    );

    test(
      'when a PayPal subscription is activated for a user, then the webhook answer and the listed ' +
        'subscription match the document',
      async () => {
        const subscriptionId = `I-OA${randomBytes(5).toString('hex').toUpperCase()}`;
        const delivery = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', {
          subscriptionId,
          clerkUserId: (await stack.stores.users.findByAnyId(admin.id))!.clerkUserId!,
        });
        await expectAnswer(200, 'POST', '/api/v1/billing/paypal/webhook', {
          body: delivery.body,
          headers: delivery.headers,
        });
        expect(await processedEvent(stack, 'paypal', delivery.eventId)).not.toBeNull();
        const listed = await expectAnswer(200, 'GET', '/api/v1/billing/subscriptions', { key: admin.key });
        expect(listed.body.data.map((s: any) => s.subscriptionId)).toContain(subscriptionId);
      },
    );

    test(
      'when PayPal deliveries are unusable, then 200 ' + 'handled:false, 400, 401 and 503 match the document',
      async () => {
        const other = signPayPal(
          JSON.stringify({ id: `WH-${randomUUID()}`, event_type: 'CHECKOUT.ORDER.APPROVED', resource: {} }),
        );
        const unhandled = await expectAnswer(200, 'POST', '/api/v1/billing/paypal/webhook', {
          body: other.body,
          headers: other.headers,
        });
        expect(unhandled.body.handled).toBe(false);
        const noCustomId = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', {
          subscriptionId: 'I-OANOCUSTOM',
          clerkUserId: 'user_x',
          mutate: (b) => delete b.resource.custom_id,
        });
        const missing = await expectAnswer(400, 'POST', '/api/v1/billing/paypal/webhook', {
          body: noCustomId.body,
          headers: noCustomId.headers,
        });
        expect(missing.body.code).toBe('MISSING_CUSTOM_ID');
        await expectAnswer(401, 'POST', '/api/v1/billing/paypal/webhook', {
          body: noCustomId.body,
          headers: { 'content-type': 'application/json' },
        });
        await expectAnswer(
          503,
          'POST',
          '/api/v1/billing/paypal/webhook',
          { body: noCustomId.body, headers: noCustomId.headers },
          bare,
        );
      },
    );

    test(
      'when a PayFast ITN arrives for a checkout and is then refunded, then 200 OK, every ITN refusal and the ' +
        'refund answers match the document',
      async () => {
        const user = await stack.createUser({ clerkUserId: `user_pf${randomUUID().replace(/-/g, '').slice(0, 20)}` });
        const checkout = await expectAnswer(201, 'POST', '/api/v1/billing/payfast/checkout', {
          key: user.key,
          body: { packageId: 'top-up-250' },
        });
        const pfPaymentId = `${Date.now() % 1e9}${randomBytes(2).readUInt16BE()}`;
        const itn = signedItn(
          completeItn({
            mPaymentId: checkout.body.data.mPaymentId,
            pfPaymentId,
            amount: checkout.body.data.fields.amount,
            customStr1: checkout.body.data.fields.custom_str1,
          }),
        );
        const form = { 'content-type': 'application/x-www-form-urlencoded' };

        payfastSourceAllowed = false;
        await expectAnswer(403, 'POST', '/api/v1/billing/payfast/webhook', { body: itn, headers: form });
        payfastSourceAllowed = true;
        const ok = await expectAnswer(200, 'POST', '/api/v1/billing/payfast/webhook', { body: itn, headers: form });
        expect(ok.body).toBe('OK');
        await expectAnswer(400, 'POST', '/api/v1/billing/payfast/webhook', { body: 'a=%zz', headers: form });
        await expectAnswer(401, 'POST', '/api/v1/billing/payfast/webhook', {
          body: Buffer.from(itn.toString().replace(/signature=\w+/, 'signature=0')),
          headers: form,
        });
        await expectAnswer(503, 'POST', '/api/v1/billing/payfast/webhook', { body: itn, headers: form }, bare);

        expect(await processedEvent(stack, 'payfast', payfastEventId(pfPaymentId, 'COMPLETE'))).not.toBeNull();
        const refund = { pfPaymentId, refundId: `rf-${randomUUID()}`, amount: checkout.body.data.fields.amount };
        await expectAnswer(200, 'POST', '/api/v1/billing/payfast/refunds', { key: admin.key, body: refund });
        await expectAnswer(409, 'POST', '/api/v1/billing/payfast/refunds', {
          key: admin.key,
          body: { ...refund, amount: '1.00' },
        });
        await expectAnswer(404, 'POST', '/api/v1/billing/payfast/refunds', {
          key: admin.key,
          body: { ...refund, pfPaymentId: '999999999', refundId: `rf-${randomUUID()}` },
        });
        await expectAnswer(400, 'POST', '/api/v1/billing/payfast/refunds', {
          key: admin.key,
          body: { ...refund, amount: '0.00' },
        });
        await expectAnswer(403, 'POST', '/api/v1/billing/payfast/refunds', { key: user.key, body: refund });
        await expectAnswer(401, 'POST', '/api/v1/billing/payfast/refunds', { body: refund });
        // No worker behind `bare` (same database): the refund is recorded and answered 202 pending after the wait.
        const pending = await expectAnswer(
          202,
          'POST',
          '/api/v1/billing/payfast/refunds',
          { key: admin.key, body: { pfPaymentId, refundId: `rf-${randomUUID()}`, amount: '1.00' } },
          bare,
        );
        expect(pending.body.data).toMatchObject({ state: 'pending', duplicate: false });
      },
    );
  });

  describe('history', () => {
    test(
      'when the history webhook records, lists and shows an entry, then 201, 400, 401, 413 and the history ' +
        'answers match the document',
      async () => {
        const secret = { 'x-activity-webhook-secret': HISTORY_WEBHOOK_SECRET };
        const record = {
          activityType: 'KYE',
          userId: admin.id,
          entityId: 'ent-openapi',
          entityName: 'Garantex',
          requestId: randomUUID(),
          riskLevel: 'High',
          riskScore: 80,
        };
        const recorded = await expectAnswer(201, 'POST', '/api/webhook/activity', { headers: secret, body: record });
        const invalid = await expectAnswer(400, 'POST', '/api/webhook/activity', {
          headers: secret,
          body: { activityType: 'kyx', userId: 'u' },
        });
        expect(invalid.body).toEqual({
          error: 'Invalid activityType. Must be one of: kyt, kya, kye',
          field: 'activityType',
        });
        await expectAnswer(401, 'POST', '/api/webhook/activity', { body: record });
        await expectAnswer(413, 'POST', '/api/webhook/activity', {
          headers: secret,
          body: { ...record, metadata: { pad: 'x'.repeat(1_100_000) } },
        });

        const list = await expectAnswer(200, 'GET', '/api/v1/activity?limit=5&activityType=kye', { key: admin.key });
        expect(list.body.data.map((r: any) => r.id)).toContain(recorded.body.id);
        await expectAnswer(200, 'GET', '/api/v1/activity?q=0x4f47&errors=false&from=2020-01-01', { key: admin.key });
        await expectAnswer(400, 'GET', '/api/v1/activity?riskLevel=severe', { key: admin.key });
        await expectAnswer(401, 'GET', '/api/v1/activity');
        await expectAnswer(200, 'GET', `/api/v1/activity/${recorded.body.id}`, { key: admin.key });
        await expectAnswer(404, 'GET', `/api/v1/activity/${randomUUID()}`, { key: admin.key });
        await expectAnswer(401, 'GET', `/api/v1/activity/${recorded.body.id}`);
      },
    );
  });

  describe('market data', () => {
    test(
      'when candles, capabilities and queries are asked for, then 200, 400, 401 and 404 (with their RateLimit ' +
        'headers) match the document',
      async () => {
        await expectAnswer(200, 'GET', '/api/v1/market-data/candles?symbol=btc-usd&interval=1d&limit=3', {
          bearer: admin.key,
        });
        await expectAnswer(
          200,
          'GET',
          '/api/v1/market-data/candles?symbol=BTC-USDT&interval=1w&startTime=1704067200000&endTime=1706745600000',
          { key: admin.key },
        );
        await expectAnswer(400, 'GET', '/api/v1/market-data/candles?symbol=BTC-USD&interval=2d', { bearer: admin.key });
        await expectAnswer(400, 'GET', '/api/v1/market-data/candles?symbol=BTC-USD&interval=1d&start_time=1', {
          bearer: admin.key,
        });
        await expectAnswer(404, 'GET', '/api/v1/market-data/candles?symbol=BTC-XXX&interval=1d', { bearer: admin.key });
        await expectAnswer(401, 'GET', '/api/v1/market-data/candles?symbol=BTC-USD&interval=1d');
        await expectAnswer(200, 'GET', '/api/v1/capabilities', { bearer: admin.key });
        await expectAnswer(401, 'GET', '/api/v1/capabilities', { bearer: 'cs_live_wrong' });
        await expectAnswer(200, 'POST', '/api/v1/query', {
          bearer: admin.key,
          body: {
            connector: 'binance',
            dataType: 'candles',
            filters: { symbol: 'BTC-USDT', interval: '1w' },
            limit: '2',
          },
        });
        await expectAnswer(200, 'POST', '/api/v1/query', {
          bearer: admin.key,
          body: { connector: 'kraken', dataType: 'ticker', filters: { symbol: 'ETH-USD' } },
        });
        await expectAnswer(200, 'POST', '/api/v1/query', {
          bearer: admin.key,
          body: { connector: 'kraken', dataType: 'ticker' },
        });
        await expectAnswer(400, 'POST', '/api/v1/query', {
          bearer: admin.key,
          body: { connector: 'kraken', dataType: 'ticker', extra: 1 },
        });
        await expectAnswer(400, 'POST', '/api/v1/query', {
          bearer: admin.key,
          body: '[',
          headers: { 'content-type': 'application/json' },
        });
        await expectAnswer(404, 'POST', '/api/v1/query', {
          bearer: admin.key,
          body: { connector: 'binance', dataType: 'ticker', filters: { symbol: 'BTC-USD' } },
        });
        await expectAnswer(401, 'POST', '/api/v1/query', { body: { connector: 'kraken', dataType: 'ticker' } });
      },
    );

    test('when a free key spends its 60 requests, then the 61st is a 429 that matches the document', async () => {
      const free = await stack.createUser();
      for (let batch = 0; batch < 6; batch++) {
        await Promise.all(
          Array.from({ length: 10 }, () => send(stack, 'GET', '/api/v1/capabilities', { bearer: free.key })),
        );
      }
      const limited = await expectAnswer(429, 'GET', '/api/v1/capabilities', { bearer: free.key });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('pay-per-use reports (x402)', () => {
    const url = (kind: string) => `${stack.api.url}/api/v1/x402/${kind}/report`;
    const paying = () =>
      wrapFetchWithPayment(fetch, new x402Client().register('eip155:8453', new ExactEvmClientScheme(payer)));
    const pay = async (kind: string, body: unknown) =>
      parsed(
        await paying()(url(kind), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    const check = (status: number, kind: string, answer: Answer) => {
      expect([kind, answer.status, answer.status === status ? null : answer.body]).toEqual([kind, status, null]);
      v.expectMatches('POST', `/api/v1/x402/${kind}/report`, answer.status, answer.body, answer.headers);
    };

    test(
      'when reports are requested without payment, then the 402 challenge (header and body) and ' +
        'the 400s match the document',
      async () => {
        const challenge = await expectAnswer(402, 'POST', '/api/v1/x402/kya/report', {
          body: { chain: 'ethereum', address: SANCTIONED },
        });
        expect(decodePaymentRequiredHeader(challenge.headers.get('payment-required') as string).accepts[0]?.payTo).toBe(
          payTo,
        );
        await expectAnswer(402, 'POST', '/api/v1/x402/kyt/report', { body: { chain: 'ethereum', txid: ETH_TX } });
        await expectAnswer(402, 'POST', '/api/v1/x402/kye/report', { body: { name: 'Garantex' } });
        await expectAnswer(400, 'POST', '/api/v1/x402/kya/report', {
          body: { chain: 'litecoinz', address: SANCTIONED },
        });
        await expectAnswer(400, 'POST', '/api/v1/x402/kyt/report', { body: { chain: 'ethereum', txid: 'xyz' } });
        await expectAnswer(400, 'POST', '/api/v1/x402/kye/report', { body: { name: 'x' } });
      },
    );

    test(
      'when reports are paid, then the 200 reports, the uncharged 404 and 422, a replay and a tampered ' +
        'payment match the document',
      async () => {
        const kya = await pay('kya', { chain: 'ethereum', address: SANCTIONED });
        check(200, 'kya', kya);
        expect(kya.headers.get('payment-response')).toBeTruthy();
        check(200, 'kye', await pay('kye', { name: 'Garantex' }));
        check(404, 'kye', await pay('kye', { name: 'qqqq zzzz xylophone' }));
        check(422, 'kyt', await pay('kyt', { chain: 'ethereum', txid: ETH_TX }));
        check(200, 'kyt', await pay('kyt', { chain: 'bitcoin', txid: BTC_TX }));
        check(404, 'kyt', await pay('kyt', { chain: 'bitcoin', txid: BTC_UNKNOWN_TX }));

        const body = { chain: 'ethereum', address: SANCTIONED };
        const required = decodePaymentRequiredHeader(
          (await send(stack, 'POST', '/api/v1/x402/kya/report', { body })).headers.get('payment-required') as string,
        );
        const payload = await new x402Client()
          .register('eip155:8453', new ExactEvmClientScheme(payer))
          .createPaymentPayload(required);
        const header = encodePaymentSignatureHeader(payload);
        // The same payment twice at once: one report; the other finds the authorization claimed (DUPLICATE_PAYMENT)
        // or, once it is settled, no longer valid on chain (PAYMENT_REJECTED). Then a replay of the used payment.
        const twice = await Promise.all(
          [0, 1].map(() =>
            send(stack, 'POST', '/api/v1/x402/kya/report', { body, headers: { 'payment-signature': header } }),
          ),
        );
        expect(twice.map((a) => a.status).sort()).toEqual([200, 402]);
        for (const a of twice) v.expectMatches('POST', '/api/v1/x402/kya/report', a.status, a.body, a.headers);
        await expectAnswer(402, 'POST', '/api/v1/x402/kya/report', { body, headers: { 'payment-signature': header } });
        const tampered = encodePaymentSignatureHeader({
          ...payload,
          payload: {
            ...(payload.payload as object),
            authorization: { ...(payload.payload as any).authorization, value: '1' },
          },
        } as typeof payload);
        const refused = await expectAnswer(402, 'POST', '/api/v1/x402/kya/report', {
          body,
          headers: { 'payment-signature': tampered },
        });
        expect(refused.body).toMatchObject({ success: false, code: 'PAYMENT_REJECTED', reason: expect.any(String) });
      },
    );

    test('when payments are not configured, then the 503 matches the document', async () => {
      await expectAnswer(
        503,
        'POST',
        '/api/v1/x402/kya/report',
        { body: { chain: 'ethereum', address: SANCTIONED } },
        bare,
      );
      await expectAnswer(503, 'POST', '/api/v1/x402/kye/report', { body: { name: 'Garantex' } }, bare);
      await expectAnswer(503, 'POST', '/api/v1/x402/kyt/report', { body: { chain: 'ethereum', txid: ETH_TX } }, bare);
    });
  });

  describe('identity webhooks and the service', () => {
    test(
      'when Clerk delivers a signed event, then 200; a bad signature 401 and an unconfigured ' +
        'deployment 503 match the document',
      async () => {
        const event = {
          type: 'user.created',
          object: 'event',
          data: {
            id: `user_oa${randomUUID().replace(/-/g, '').slice(0, 20)}`,
            email_addresses: [],
            updated_at: Date.now(),
          },
        };
        const delivery = clerkDelivery(JSON.stringify(event));
        await expectAnswer(200, 'POST', '/api/webhook/clerk', { body: delivery.body, headers: delivery.headers });
        await expectAnswer(401, 'POST', '/api/webhook/clerk', {
          body: delivery.body,
          headers: { ...delivery.headers, 'svix-signature': 'v1,AAAA' },
        });
        await expectAnswer(503, 'POST', '/api/webhook/clerk', { body: delivery.body, headers: delivery.headers }, bare);
      },
    );

    test('when the health check and the document itself are fetched, then both match the document', async () => {
      await expectAnswer(200, 'GET', '/health');
      await expectAnswer(200, 'GET', '/api/v1/openapi.json');
    });

    test(
      'when the sanctions lists and an address on them are asked for, then the versions, the as-of answer ' +
        'and the refusals match the document',
      async () => {
        const lists = await expectAnswer(200, 'GET', '/api/v1/lists', { key: admin.key });
        expect(lists.body.data.sanctions[0].active.issue_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        const listed = await expectAnswer(
          200,
          'GET',
          '/api/v1/lists/ofac/addresses/0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c?as_of=2024-01-01',
          { key: admin.key },
        );
        expect(listed.body.data.listed).toBe(true);
        await expectAnswer(
          400,
          'GET',
          '/api/v1/lists/ofac/addresses/0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c?as_of=2025-02-30',
          {
            key: admin.key,
          },
        );
        await expectAnswer(401, 'GET', '/api/v1/lists');
      },
    );

    test(
      'when monitors are created, listed, read, re-screened ' + 'and deleted, then every answer matches the document',
      async () => {
        const body = { chain: 'bitcoin', address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h', alert_level: 'HIGH' };
        const created = await expectAnswer(201, 'POST', '/api/v1/monitors', { key: admin.key, body });
        const id = created.body.data.id;
        await expectAnswer(200, 'POST', '/api/v1/monitors', { key: admin.key, body });
        await expectAnswer(400, 'POST', '/api/v1/monitors', { key: admin.key, body: { ...body, chain: 'litecoinz' } });
        await expectAnswer(200, 'GET', '/api/v1/monitors', { key: admin.key });
        await expectAnswer(200, 'GET', `/api/v1/monitors/${id}`, { key: admin.key });
        await expectAnswer(200, 'GET', `/api/v1/monitors/${id}/alerts`, { key: admin.key });
        await expectAnswer(202, 'POST', `/api/v1/monitors/${id}/rescreen`, { key: admin.key });
        await expectAnswer(200, 'DELETE', `/api/v1/monitors/${id}`, { key: admin.key });
        await expectAnswer(404, 'GET', `/api/v1/monitors/${id}`, { key: admin.key });
        await expectAnswer(404, 'DELETE', `/api/v1/monitors/${id}`, { key: admin.key });
        await expectAnswer(404, 'GET', `/api/v1/monitors/${id}/alerts`, { key: admin.key });
        await expectAnswer(404, 'POST', `/api/v1/monitors/${id}/rescreen`, { key: admin.key });
        await expectAnswer(401, 'GET', '/api/v1/monitors');
      },
    );

    test(
      'when custom labels are created, repeated, refused, listed and deleted, ' +
        'then every answer matches the document',
      async () => {
        const body = {
          chain: 'bitcoin',
          address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
          category: 'allow',
          name: 'openapi',
        };
        const created = await expectAnswer(201, 'POST', '/api/v1/custom-labels', { key: admin.key, body });
        const id = created.body.data.id;
        await expectAnswer(200, 'POST', '/api/v1/custom-labels', { key: admin.key, body });
        await expectAnswer(400, 'POST', '/api/v1/custom-labels', {
          key: admin.key,
          body: { ...body, category: 'evil' },
        });
        await expectAnswer(200, 'GET', '/api/v1/custom-labels', { key: admin.key });
        await expectAnswer(200, 'GET', `/api/v1/custom-labels?chain=bitcoin&address=${body.address}`, {
          key: admin.key,
        });
        await expectAnswer(400, 'GET', '/api/v1/custom-labels?chain=litecoinz', { key: admin.key });
        await expectAnswer(200, 'DELETE', `/api/v1/custom-labels/${id}`, { key: admin.key });
        await expectAnswer(404, 'DELETE', `/api/v1/custom-labels/${id}`, { key: admin.key });
        await expectAnswer(401, 'GET', '/api/v1/custom-labels');
        await expectAnswer(200, 'GET', `/api/v1/clusters/bitcoin/${body.address}`, { key: admin.key });
        await expectAnswer(400, 'GET', '/api/v1/clusters/litecoinz/abc', { key: admin.key });
        await expectAnswer(400, 'GET', `/api/v1/clusters/bitcoin/${body.address}?limit=0`, { key: admin.key });
        await expectAnswer(401, 'GET', `/api/v1/clusters/bitcoin/${body.address}`);
      },
    );

    test(
      'when policies are created, edited, read, listed, made the default and deleted, then every answer matches ' +
        'the document',
      async () => {
        const path = '/api/v1/policies/openapi-routes';
        const body = { name: 'Strict', severe_categories: ['gambling'], categories: { mixer: { weight: 1.5 } } };
        const created = await expectAnswer(201, 'PUT', path, { key: admin.key, body });
        expect(created.body.data.version).toBe(1);
        await expectAnswer(200, 'PUT', path, { key: admin.key, body: { ...body, levels: { HIGH: 60 } } });
        await expectAnswer(400, 'PUT', path, { key: admin.key, body: { levels: { HIGH: 101 } } });
        await expectAnswer(400, 'PUT', '/api/v1/policies/standard', { key: admin.key, body });
        await expectAnswer(200, 'GET', path, { key: admin.key });
        // Version 1 was named by no answer: writing version 2 pruned it.
        await expectAnswer(200, 'GET', `${path}?version=2`, { key: admin.key });
        await expectAnswer(404, 'GET', `${path}?version=1`, { key: admin.key });
        await expectAnswer(400, 'GET', `${path}?version=0`, { key: admin.key });
        await expectAnswer(404, 'GET', '/api/v1/policies/never-made', { key: admin.key });
        await expectAnswer(200, 'GET', '/api/v1/policies', { key: admin.key });
        await expectAnswer(200, 'GET', '/api/v1/policies/bounds', { key: admin.key });
        await expectAnswer(200, 'PUT', '/api/v1/policies/default', {
          key: admin.key,
          body: { policy_id: 'openapi-routes' },
        });
        await expectAnswer(200, 'GET', '/api/v1/policies/default', { key: admin.key });
        await expectAnswer(404, 'PUT', '/api/v1/policies/default', { key: admin.key, body: { policy_id: 'never' } });
        await expectAnswer(400, 'PUT', '/api/v1/policies/default', { key: admin.key, body: {} });
        await expectAnswer(204, 'DELETE', '/api/v1/policies/default', { key: admin.key });
        await expectAnswer(404, 'POST', '/api/v1/monitors', {
          key: admin.key,
          body: { chain: 'bitcoin', address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h', policy_id: 'never-made' },
        });
        await expectAnswer(204, 'DELETE', path, { key: admin.key });
        await expectAnswer(404, 'DELETE', path, { key: admin.key });
        await expectAnswer(401, 'GET', '/api/v1/policies');
      },
    );

    test(
      'when a batch is submitted, replayed, refused, listed, read and downloaded, then every answer matches the ' +
        'document',
      async () => {
        const owner = await stack.createUser({ credits: 5 });
        const items = [
          { chain: 'ethereum', address: SANCTIONED, reference_id: 'batch-1' },
          { chain: 'ethereum', address: 'not-an-address', reference_id: 'batch-2' },
        ];
        const key = { 'Idempotency-Key': `openapi-${randomUUID()}` };
        const submitted = await expectAnswer(202, 'POST', '/api/v1/kyt/batch', {
          key: owner.key,
          headers: key,
          body: { items },
        });
        const id = submitted.body.data.batch_id;
        const replayed = await expectAnswer(202, 'POST', '/api/v1/kyt/batch', {
          key: owner.key,
          headers: key,
          body: { items },
        });
        expect(replayed.headers.get('idempotent-replayed')).toBe('true');
        await expectAnswer(409, 'POST', '/api/v1/kyt/batch', {
          key: owner.key,
          headers: key,
          body: { items: [items[0]] },
        });
        await expectAnswer(400, 'POST', '/api/v1/kyt/batch', { key: owner.key, body: { items: [] } });
        await expectAnswer(404, 'POST', '/api/v1/kyt/batch', {
          key: owner.key,
          body: { items, policy_id: 'never-created' },
        });
        await expectAnswer(401, 'POST', '/api/v1/kyt/batch', { body: { items } });
        for (let i = 0; i < 100; i++) {
          const read = await send(stack, 'GET', `/api/v1/kyt/batch/${id}`, { key: owner.key });
          if (read.body.data.status === 'completed') break;
          await new Promise((r) => setTimeout(r, 100));
        }
        const read = await expectAnswer(200, 'GET', `/api/v1/kyt/batch/${id}?limit=10`, { key: owner.key });
        expect(read.body.data.items.map((i: any) => i.status)).toEqual(['completed', 'invalid']);
        await expectAnswer(400, 'GET', `/api/v1/kyt/batch/${id}?status=done`, { key: owner.key });
        await expectAnswer(404, 'GET', `/api/v1/kyt/batch/${randomUUID()}`, { key: owner.key });
        await expectAnswer(401, 'GET', `/api/v1/kyt/batch/${id}`);
        await expectAnswer(200, 'GET', '/api/v1/kyt/batches', { key: owner.key });
        await expectAnswer(400, 'GET', '/api/v1/kyt/batches?limit=0', { key: owner.key });
        await expectAnswer(401, 'GET', '/api/v1/kyt/batches');
        const csv = await expectAnswer(200, 'GET', `/api/v1/kyt/batch/${id}/results.csv`, { key: owner.key });
        expect(String(csv.body).split('\r\n')).toHaveLength(4);
        await expectAnswer(404, 'GET', `/api/v1/kyt/batch/${randomUUID()}/results.csv`, { key: owner.key });
      },
    );

    test('when the keys that verify signed answers are fetched, then the key set matches the document', async () => {
      const jwks = await expectAnswer(200, 'GET', '/.well-known/jwks.json');
      expect(jwks.body.keys.length).toBeGreaterThan(0);
    });

    test(
      'when the public probes are fetched, then liveness and readiness (ready, and not ready without a worker) ' +
        'match the document, which lists no /metrics: that is on the internal listener',
      async () => {
        await expectAnswer(200, 'GET', '/healthz');
        expect((await expectAnswer(200, 'GET', '/readyz')).body).toEqual({ status: 'ready' });
        expect((await expectAnswer(503, 'GET', '/readyz', {}, bare)).body).toEqual({ status: 'not_ready' });
        expect(v.doc.paths['/metrics']).toBeUndefined();
      },
    );
  });

  test(
    'when every route has been driven, then each operation had its success answer checked, and no answer ' +
      'fell outside the document',
    () => {
      const operations: string[] = [];
      for (const [path, item] of Object.entries<any>(v.doc.paths)) {
        for (const method of ['get', 'put', 'post', 'delete']) {
          const op = item[method];
          if (!op) continue;
          const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
          if (!success.some((s) => v.checked.has(`${method.toUpperCase()} ${path} ${s}`)))
            operations.push(`${method.toUpperCase()} ${path}`);
        }
      }
      expect(operations).toEqual([]);
      process.stdout.write(
        `openapi-responses: ${v.validated} answers checked, ${v.checked.size} distinct (operation, status) pairs\n`,
      );
      expect(v.checked.size).toBeGreaterThan(100);
    },
  );
});
