import { generateKeyPairSync } from 'node:crypto';
import { createTestSigner } from '../helpers/jwt';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';

const SANCTIONED_BTC = '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h'; // OFAC SDN (data/risk/sanctions_ofac.csv)
const SANCTIONED_EVM = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
const CLEAN_BTC = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'; // the genesis coinbase address: on no list
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('screening jobs: submit, poll, full response', () => {
  let stack: TestStack;
  const signer = createTestSigner();

  beforeAll(async () => {
    stack = await startTestStack({ env: { CLERK_JWT_KEY: signer.publicKeyPem } });
  });
  afterAll(async () => stack.stop());

  test(
    'when a KYA job is submitted and polled, then it completes ' + 'with every field of spec 2.4 and costs one credit',
    async () => {
      const user = await stack.createUser({ credits: 3 });

      const submit = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        body: { chain: 'bitcoin', address: SANCTIONED_BTC, reference_id: 'case-42' },
      });

      expect(submit.status).toBe(202);
      expect(submit.body.success).toBe(true);
      expect(submit.body.data).toEqual({
        request_id: expect.stringMatching(UUID_RE),
        status: 'queued',
        reference_id: 'case-42',
        created_at: expect.any(Number),
      });
      expect(Math.abs(submit.body.data.created_at - Date.now())).toBeLessThan(60_000);
      expect(submit.headers.get('location')).toBe(`/api/v1/kyt/job/${submit.body.data.request_id}`);

      const polled = await pollUntilDone(stack, user.key, submit.body.data.request_id);
      expect(polled.success).toBe(true);
      expect(polled.data.status).toBe('completed');
      expect(polled.data.request_id).toBe(submit.body.data.request_id);
      expect(polled.data.reference_id).toBe('case-42');
      const r = polled.data.response;
      expect(r.api_type).toBe('KYA');
      expect(r.chain).toBe('bitcoin');
      expect(r.risk_level).toBe('HIGH');
      expect(r.risk_score).toBe(100);
      expect(r.response_id).toMatch(UUID_RE);
      expect(r.response_id).not.toBe(polled.data.request_id);
      expect(r.risk_reason).toMatch(/OFAC SDN/);
      expect(Object.keys(r.rule_scores).sort()).toEqual([
        'active_duration',
        'address_type',
        'is_blacklisted',
        'is_sanctioned',
        'receive_count',
        'tag_score',
      ]);
      for (const v of Object.values(r.rule_scores)) expect(typeof v).toBe('number');
      expect(r.rule_scores.is_sanctioned).toBe(100);
      expect(r.target_summary.address).toBe(SANCTIONED_BTC);
      expect(r.target_summary.tags.length).toBeGreaterThan(0);
      for (const t of r.target_summary.tags)
        expect(t).toEqual({ name: expect.any(String), type: expect.any(String), display: expect.any(String) });
      expect(Array.isArray(r.target_summary.balances)).toBe(true);

      const balance = await stack.http('GET', '/api/v1/credits/balance', { key: user.key });
      expect(balance.body.data).toEqual({ balance: 2, reserved: 0, available: 2, debt: 0 });

      const { rows } = await stack.pool.query(
        'SELECT activity_type, risk_level, risk_score, response_id, address ' +
          'FROM activity_history WHERE request_id = $1',
        [polled.data.request_id],
      );
      expect(rows).toEqual([
        {
          activity_type: 'kya',
          risk_level: 'high',
          risk_score: 100,
          response_id: r.response_id,
          address: SANCTIONED_BTC,
        },
      ]);
    },
  );

  test(
    'when the full response is fetched, then it carries the hits, ' +
      'the crawl report and the model on top of the response',
    async () => {
      const user = await stack.createUser({ credits: 1 });
      const submit = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        body: { chain: 'ethereum', address: SANCTIONED_EVM.toUpperCase().replace('0X', '0x') },
      });
      await pollUntilDone(stack, user.key, submit.body.data.request_id);

      const full = await stack.http('GET', `/api/v1/kyt/job/${submit.body.data.request_id}/fullresponse`, {
        key: user.key,
      });

      expect(full.status).toBe(200);
      const f = full.body.data.response;
      expect(f.target_summary.address).toBe(SANCTIONED_EVM);
      expect(f.hits.some((h: any) => h.rule === 'is_sanctioned' && h.score === 100)).toBe(true);
      expect(f.crawl).toMatchObject({ ran: false, complete: false, depth_reached: 0 });
      expect(f.crawl.note).toMatch(/no ethereum node is configured/);
      expect(f.risk_reason).toMatch(/lists only/);
      expect(f.model.levels).toEqual({ LOW: '0-39', MEDIUM: '40-69', HIGH: '70-100' });
      expect(typeof f.performance.analysis_ms).toBe('number');
    },
  );

  test('when a clean address is screened, then it is LOW and the reason says absence is not proof', async () => {
    const user = await stack.createUser({ credits: 1 });
    const submit = await stack.http('POST', '/api/v1/kyt/job', {
      key: user.key,
      body: { chain: 'bitcoin', address: CLEAN_BTC },
    });
    const polled = await pollUntilDone(stack, user.key, submit.body.data.request_id);
    expect(polled.data.response.risk_level).toBe('LOW');
    expect(polled.data.response.risk_score).toBe(0);
    expect(polled.data.response.risk_reason).toMatch(/unknown, not proven clean/);
  });

  test('when only the deprecated referenceId is sent, then it is echoed as reference_id', async () => {
    const user = await stack.createUser({ credits: 1 });
    const submit = await stack.http('POST', '/api/v1/kyt/job', {
      key: user.key,
      body: { chain: 'bitcoin', address: CLEAN_BTC, referenceId: 'legacy-7' },
    });
    expect(submit.status).toBe(202);
    expect(submit.body.data.reference_id).toBe('legacy-7');
    const polled = await pollUntilDone(stack, user.key, submit.body.data.request_id);
    expect(polled.data.reference_id).toBe('legacy-7');
  });

  test.each([
    ['both address and txid', { chain: 'bitcoin', address: CLEAN_BTC, txid: 'a'.repeat(64) }, 'address,txid'],
    ['neither address nor txid', { chain: 'bitcoin' }, 'address|txid'],
    ['crawlTimeout as a string', { chain: 'bitcoin', address: CLEAN_BTC, crawlTimeout: '5000' }, 'crawlTimeout'],
    ['crawlTimeout negative', { chain: 'bitcoin', address: CLEAN_BTC, crawlTimeout: -1 }, 'crawlTimeout'],
    ['crawlTimeout fractional', { chain: 'bitcoin', address: CLEAN_BTC, crawlTimeout: 1500.5 }, 'crawlTimeout'],
    ['crawlTimeout too large', { chain: 'bitcoin', address: CLEAN_BTC, crawlTimeout: 10_000_000 }, 'crawlTimeout'],
    ['an unknown chain', { chain: 'litecoinz', address: CLEAN_BTC }, 'chain'],
    ['a missing chain', { address: CLEAN_BTC }, 'chain'],
    ['an address of the wrong format', { chain: 'ethereum', address: CLEAN_BTC }, 'address'],
    ['a txid of the wrong format', { chain: 'bitcoin', txid: 'xyz' }, 'txid'],
  ])(
    'when the body has %s, then 400 INVALID_PARAMETER names it and nothing is held',
    async (_name, body, parameter) => {
      const user = await stack.createUser({ credits: 1 });
      const res = await stack.http('POST', '/api/v1/kyt/job', { key: user.key, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_PARAMETER');
      expect(res.body.error.details.parameter).toBe(parameter);
      expect(typeof res.body.error.details.expected).toBe('string');
      expect((await stack.stores.credits.balance(user.id)).available).toBe(1);
    },
  );

  test('when the body is not JSON, then 400 names the body', async () => {
    const user = await stack.createUser({ credits: 1 });
    const res = await stack.http('POST', '/api/v1/kyt/job', {
      key: user.key,
      body: '{"chain":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'body' } });
  });

  test(
    'when KYT is asked on a chain without a node, then ' + '422 CHAIN_NOT_CONFIGURED and nothing is charged',
    async () => {
      const user = await stack.createUser({ credits: 1 });
      const res = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        body: { chain: 'bitcoin', txid: 'ab'.repeat(32) },
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ success: false, code: 'CHAIN_NOT_CONFIGURED' });
    },
  );

  test('when the account has no credits, then 402 INSUFFICIENT_CREDITS and no job exists', async () => {
    const user = await stack.createUser({ credits: 0 });
    const res = await stack.http('POST', '/api/v1/kyt/job', {
      key: user.key,
      body: { chain: 'bitcoin', address: CLEAN_BTC },
    });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      success: false,
      error: expect.stringMatching(/Insufficient credits/),
      code: 'INSUFFICIENT_CREDITS',
      required: 1,
      available: 0,
    });
    const { rows } = await stack.pool.query('SELECT count(*)::int AS n FROM screening_jobs WHERE user_id = $1', [
      user.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  test("when a job id is unknown, malformed or another user's, then 404", async () => {
    const owner = await stack.createUser({ credits: 1 });
    const other = await stack.createUser({ credits: 0 });
    const submit = await stack.http('POST', '/api/v1/kyt/job', {
      key: owner.key,
      body: { chain: 'bitcoin', address: CLEAN_BTC },
    });
    for (const [key, id] of [
      [owner.key, '00000000-0000-4000-8000-000000000000'],
      [owner.key, 'not-a-uuid'],
      [other.key, submit.body.data.request_id],
    ] as const) {
      const poll = await stack.http('GET', `/api/v1/kyt/job/${id}`, { key });
      expect(poll.status).toBe(404);
      expect(poll.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
      const full = await stack.http('GET', `/api/v1/kyt/job/${id}/fullresponse`, { key });
      expect(full.status).toBe(404);
    }
  });

  describe('authentication', () => {
    const body = { chain: 'bitcoin', address: CLEAN_BTC };
    const expect401 = (res: { status: number; body: unknown }) => {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: 'Authentication required' });
    };

    test('when no key is sent, then 401', async () => expect401(await stack.http('POST', '/api/v1/kyt/job', { body })));
    test('when an unknown key is sent, then 401', async () =>
      expect401(await stack.http('POST', '/api/v1/kyt/job', { key: 'cs_live_nope', body })));
    test('when a revoked key is sent, then 401', async () => {
      const user = await stack.createUser({ credits: 1 });
      const list = await stack.http('GET', '/api/v1/api-keys', { key: user.key });
      const del = await stack.http('DELETE', `/api/v1/api-keys/${list.body.data[0].id}`, { key: user.key });
      expect(del.status).toBe(200);
      expect401(await stack.http('POST', '/api/v1/kyt/job', { key: user.key, body }));
    });
    test('when a JWT signed by another key is sent, then 401', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const token = signer.signToken({ sub: 'user_evil', exp: Math.floor(Date.now() / 1000) + 60 }, privateKey);
      expect401(await stack.http('POST', '/api/v1/kyt/job', { headers: { authorization: `Bearer ${token}` }, body }));
    });
    test('when an expired JWT is sent, then 401', async () => {
      const token = signer.signToken({ sub: 'user_expired', exp: Math.floor(Date.now() / 1000) - 60 });
      expect401(await stack.http('POST', '/api/v1/kyt/job', { headers: { authorization: `Bearer ${token}` }, body }));
    });
    test(
      'when a valid session JWT of a new Clerk user is sent, ' +
        'then the user is provisioned with 0 credits and gets 402',
      async () => {
        const clerkId = `user_${Date.now()}`;
        const token = signer.signToken({
          sub: clerkId,
          exp: Math.floor(Date.now() / 1000) + 60,
          email: 'new@example.com',
        });
        const res = await stack.http('POST', '/api/v1/kyt/job', {
          headers: { authorization: `Bearer ${token}` },
          body,
        });
        expect(res.status).toBe(402);
        const me = await stack.http('GET', '/api/v1/me', { headers: { authorization: `Bearer ${token}` } });
        expect(me.body.data).toMatchObject({
          clerkUserId: clerkId,
          email: 'new@example.com',
          role: 'user',
          credits: { balance: 0 },
        });
      },
    );
  });

  test("when a job is started, then its workflow carries the operators' search attributes", async () => {
    const user = await stack.createUser({ credits: 1 });
    const submit = await stack.http('POST', '/api/v1/kyt/job', {
      key: user.key,
      body: { chain: 'bitcoin', address: SANCTIONED_BTC },
    });
    await pollUntilDone(stack, user.key, submit.body.data.request_id);
    const handle = stack.temporal.workflow.getHandle(`screening:${submit.body.data.request_id}`);
    await handle.result();
    const { searchAttributes } = await handle.describe();
    expect(searchAttributes).toMatchObject({
      UserId: [user.id],
      ApiType: ['KYA'],
      Chain: ['bitcoin'],
      RiskLevel: ['HIGH'],
      JobStatus: ['completed'],
    });
  });
});
