import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startAnvil } from '../helpers/anvil';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';

// "Xether.io: Games", labelled gambling (medium confidence) in data/risk/address_labels.csv: MEDIUM as shipped.
const GAMBLING = '0x0c073c92e7684031cfc297b83ecc33619e864d18';

/** Forwards JSON-RPC to anvil and counts every request: the chain calls a job (or a rescore) makes. */
async function countingRpcProxy(target: string): Promise<{ url: string; count(): number; close(): Promise<void> }> {
  let requests = 0;
  const server: Server = createServer(async (req, res) => {
    requests += 1;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const upstream = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat(chunks),
    });
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    count: () => requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

describe('customer risk policies score jobs, and stored jobs are rescored without a chain call', () => {
  let stack: TestStack;
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let rpc: Awaited<ReturnType<typeof countingRpcProxy>>;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 1 });
    rpc = await countingRpcProxy(anvil.rpcUrl);
    stack = await startTestStack({ env: { ETHEREUM_RPC_URL: rpc.url } });
  });
  afterAll(async () => {
    await stack?.stop();
    await rpc?.close();
    await anvil?.stop();
  });

  const screen = async (key: string, extra: Record<string, unknown> = {}) => {
    const submit = await stack.http('POST', '/api/v1/kyt/job', {
      key,
      body: { chain: 'ethereum', address: GAMBLING, ...extra },
    });
    expect(submit.status).toBe(202);
    const polled = await pollUntilDone(stack, key, submit.body.data.request_id);
    expect(polled.data.status).toBe('completed');
    return polled.data;
  };
  const putPolicy = async (key: string, id: string, body: Record<string, unknown>) => {
    const res = await stack.http('PUT', `/api/v1/policies/${id}`, { key, body });
    expect([200, 201]).toContain(res.status);
    return res.body.data;
  };
  const available = async (userId: string) => (await stack.stores.credits.balance(userId)).available;

  test(
    'when an account makes gambling severe, then its gambling-exposed answer is HIGH naming the policy version, ' +
      'with the standard score beside it, and other accounts still get MEDIUM',
    async () => {
      const strict = await stack.createUser({ credits: 20 });
      const other = await stack.createUser({ credits: 20 });
      expect(await putPolicy(strict.key, 'casino-strict', { severe_categories: ['gambling'] })).toMatchObject({
        version: 1,
      });

      const scored = await screen(strict.key, { policy_id: 'casino-strict' });
      expect(scored.response).toMatchObject({
        risk_level: 'HIGH',
        risk_score: 70,
        policy: { id: 'casino-strict', version: 1, name: 'casino-strict' },
        standard: { risk_level: 'MEDIUM' },
      });
      expect(scored.response.standard.risk_score).toBeLessThan(70);
      expect(scored.response.risk_reason).toMatch(/treats gambling as severe/);

      const elsewhere = await screen(other.key);
      expect(elsewhere.response.risk_level).toBe('MEDIUM');
      expect(elsewhere.response.risk_score).toBe(scored.response.standard.risk_score);
      expect(elsewhere.response.policy).toBeUndefined();
      // Another account cannot name this account's policy.
      const foreign = await stack.http('POST', '/api/v1/kyt/job', {
        key: other.key,
        body: { chain: 'ethereum', address: GAMBLING, policy_id: 'casino-strict' },
      });
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('POLICY_NOT_FOUND');
      expect(await available(other.id)).toBe(20 - elsewhere.credits_charged);

      // The account default applies when a job names none; 'standard' asks for the shipped model.
      expect(
        (await stack.http('PUT', '/api/v1/policies/default', { key: strict.key, body: { policy_id: 'casino-strict' } }))
          .status,
      ).toBe(200);
      expect((await screen(strict.key)).response).toMatchObject({ risk_level: 'HIGH', policy: { version: 1 } });
      const standard = await screen(strict.key, { policy_id: 'standard' });
      expect(standard.response.risk_level).toBe('MEDIUM');
      expect(standard.response.policy).toBeUndefined();

      // An edit is a new version: new jobs name it, the stored answer keeps version 1.
      expect(
        await putPolicy(strict.key, 'casino-strict', { categories: { gambling: { severity: 60 } } }),
      ).toMatchObject({ version: 2 });
      const edited = await screen(strict.key, { policy_id: 'casino-strict' });
      expect(edited.response).toMatchObject({ risk_level: 'MEDIUM', policy: { version: 2 } });
      const again = await stack.http('GET', `/api/v1/kyt/job/${scored.request_id}`, { key: strict.key });
      expect(again.body.data.response).toMatchObject({ risk_level: 'HIGH', policy: { version: 1 } });
    },
  );

  test(
    'when a stored job is rescored under a policy, then no chain call is made, it costs 1 credit once however ' +
      'often and however concurrently it is asked, and the job keeps its own answer',
    async () => {
      const user = await stack.createUser({ credits: 10 });
      const job = await screen(user.key);
      expect(job.response.risk_level).toBe('MEDIUM');
      await putPolicy(user.key, 'severe-gambling', { severe_categories: ['gambling'] });
      const before = await available(user.id);
      const calls = rpc.count();

      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          stack.http('POST', `/api/v1/kyt/job/${job.request_id}/rescore`, {
            key: user.key,
            body: { policy_id: 'severe-gambling' },
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      const [first] = answers;
      expect(first!.body.data).toMatchObject({
        request_id: job.request_id,
        policy: { id: 'severe-gambling', version: 1 },
        risk_level: 'HIGH',
        risk_score: 70,
        standard: { risk_level: 'MEDIUM', risk_score: job.response.risk_score },
        credits_charged: 1,
      });
      expect(new Set(answers.map((a) => a.body.data.rescored_at)).size).toBe(1);
      expect(rpc.count()).toBe(calls);
      expect(await available(user.id)).toBe(before - 1);
      const { rows } = await stack.pool.query(
        `SELECT count(*)::int AS n FROM credit_transactions WHERE user_id = $1 AND idempotency_key LIKE 'rescore:%'`,
        [user.id],
      );
      expect(rows[0].n).toBe(1);

      // Rescoring under the standard model reproduces the stored answer's score exactly.
      const standard = await stack.http('POST', `/api/v1/kyt/job/${job.request_id}/rescore`, {
        key: user.key,
        body: { policy_id: 'standard' },
      });
      expect(standard.body.data).toMatchObject({
        policy: null,
        risk_level: job.response.risk_level,
        risk_score: job.response.risk_score,
        rule_scores: job.response.rule_scores,
      });
      const polled = await stack.http('GET', `/api/v1/kyt/job/${job.request_id}`, { key: user.key });
      expect(polled.body.data.response).toEqual(job.response);
    },
  );

  test('when a rescore cannot be done, then the answer is a 4xx saying why and nothing is charged', async () => {
    const user = await stack.createUser({ credits: 2 });
    const job = await screen(user.key);
    const stranger = await stack.createUser({ credits: 5 });
    const rescore = (key: string, id: string, body: unknown) =>
      stack.http('POST', `/api/v1/kyt/job/${id}/rescore`, { key, body });

    expect((await rescore(user.key, job.request_id, { policy_id: 'nope' })).status).toBe(404);
    expect((await rescore(user.key, job.request_id, { policy_id: 'bad id!' })).status).toBe(400);
    expect((await rescore(user.key, job.request_id, { policy_id: 7 })).status).toBe(400);
    expect((await rescore(user.key, job.request_id, { policy: 'x' })).status).toBe(400);
    expect((await rescore(stranger.key, job.request_id, { policy_id: 'standard' })).status).toBe(404);
    expect((await rescore(user.key, '00000000-0000-4000-8000-000000000000', {})).status).toBe(404);
    expect((await rescore(user.key, 'not-a-uuid', {})).status).toBe(404);
    expect(await available(stranger.id)).toBe(5);

    // Out of credits: 402, and nothing stored (a later attempt with credits succeeds).
    const spent = await available(user.id);
    await stack.pool.query(`SELECT reserve_credits($1, 'test-drain', $2, $2)`, [user.id, spent]);
    const broke = await rescore(user.key, job.request_id, { policy_id: 'standard' });
    expect(broke.status).toBe(402);
    expect(broke.body.code).toBe('INSUFFICIENT_CREDITS');
    await stack.pool.query(`SELECT release_hold('test-drain')`);
    expect((await rescore(user.key, job.request_id, { policy_id: 'standard' })).body.data.credits_charged).toBe(1);
  });
});
