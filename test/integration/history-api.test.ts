import { randomUUID } from 'node:crypto';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const SECRET = 'activity-secret-for-tests-0123456789';

describe("GET /api/v1/activity (the owner's history)", () => {
  let stack: TestStack;
  let owner: { id: string; key: string };
  let clerkUserId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startTestStack({ env: { ACTIVITY_WEBHOOK_SECRET: SECRET }, worker: false });
    clerkUserId = `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    owner = await stack.createUser({ clerkUserId });
    const records = {
      ethKyt: {
        activityType: 'kyt',
        blockchain: 'ethereum',
        transactionHash: '0xaaa111',
        riskLevel: 'high',
        riskScore: 80,
        responseSummary: { risk_level: 'HIGH' },
        responsePayload: { full: true },
      },
      btcKya: { activityType: 'kya', blockchain: 'bitcoin', address: 'bc1qsearchme', riskLevel: 'low', riskScore: 5 },
      kyeErr: { activityType: 'kye', entityId: 'vasp-42', entityName: 'Garantex Europe', statusCode: 502 },
      tronKya: { activityType: 'kya', blockchain: 'tron', address: 'TXyz', riskLevel: 'high', riskScore: 75 },
    };
    for (const [name, r] of Object.entries(records)) {
      const res = await stack.http('POST', '/api/webhook/activity', {
        body: { ...r, userId: clerkUserId },
        headers: { 'x-activity-webhook-secret': SECRET },
      });
      ids[name] = res.body.id;
    }
    // Someone else's record must never show up.
    await stack.http('POST', '/api/webhook/activity', {
      body: { activityType: 'kya', userId: 'user_someoneelse', blockchain: 'bitcoin', address: 'bc1qsearchme' },
      headers: { 'x-activity-webhook-secret': SECRET },
    });
  });
  afterAll(async () => stack.stop());

  const list = async (query = '') => stack.http('GET', `/api/v1/activity${query}`, { key: owner.key });

  test(
    'when the owner lists without filters, then every ' + 'record comes newest first with the pagination object',
    async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body.data.map((r: any) => r.id)).toEqual([ids.tronKya, ids.kyeErr, ids.btcKya, ids.ethKyt]);
      expect(res.body.pagination).toEqual({ total: 4, limit: 20, offset: 0, hasMore: false });
      expect(res.body.data[3]).toMatchObject({
        activityType: 'kyt',
        riskLevel: 'high',
        riskScore: 80,
        responseSummary: { risk_level: 'HIGH' },
      });
      expect(res.body.data[3].responsePayload).toBeUndefined();
    },
  );

  test.each([
    ['?activityType=kya', ['tronKya', 'btcKya']],
    ['?riskLevel=high', ['tronKya', 'ethKyt']],
    ['?blockchain=Bitcoin', ['btcKya']],
    ['?errors=true', ['kyeErr']],
    ['?q=SEARCHME', ['btcKya']],
    ['?q=garantex', ['kyeErr']],
    ['?q=0xaaa', ['ethKyt']],
    ['?activityType=kya&riskLevel=high', ['tronKya']],
    ['?to=2000-01-01T00:00:00Z', []],
    ['?from=2000-01-01T00:00:00Z&activityType=kye', ['kyeErr']],
  ])('when filtered with %s, then exactly the matching records come back', async (query, expected) => {
    const res = await list(query);
    expect(res.body.data.map((r: any) => r.id)).toEqual(expected.map((n) => ids[n]));
    expect(res.body.pagination.total).toBe(expected.length);
  });

  test('when paged with limit and offset, then hasMore says whether more remain', async () => {
    const first = await list('?limit=3');
    const second = await list('?limit=3&offset=3');
    expect(first.body.pagination).toEqual({ total: 4, limit: 3, offset: 0, hasMore: true });
    expect(second.body.pagination).toEqual({ total: 4, limit: 3, offset: 3, hasMore: false });
    expect(second.body.data.map((r: any) => r.id)).toEqual([ids.ethKyt]);
  });

  test.each([
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?offset=-1', 'offset'],
    ['?from=yesterday', 'from'],
    ['?activityType=kyz', 'activityType'],
    ['?errors=yes', 'errors'],
    ['?q=a', 'q'],
  ])('when the query has %s, then 400 INVALID_PARAMETER names it', async (query, parameter) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
  });

  test(
    'when the owner opens one record, then the full ' + 'request and response payloads come back; others get 404',
    async () => {
      const mine = await stack.http('GET', `/api/v1/activity/${ids.ethKyt}`, { key: owner.key });
      const stranger = await stack.createUser();
      const theirs = await stack.http('GET', `/api/v1/activity/${ids.ethKyt}`, { key: stranger.key });
      const garbage = await stack.http('GET', '/api/v1/activity/not-a-uuid', { key: owner.key });
      expect(mine.body.data).toMatchObject({
        id: ids.ethKyt,
        responsePayload: { full: true },
        metadata: {},
        errorMessage: null,
      });
      expect([theirs.status, garbage.status]).toEqual([404, 404]);
    },
  );

  test('when no credentials are sent, then 401', async () => {
    expect((await stack.http('GET', '/api/v1/activity')).status).toBe(401);
  });
});

describe('POST /api/webhook/activity without ACTIVITY_WEBHOOK_SECRET', () => {
  test(
    'when the secret is not configured, then every request ' + 'is refused with 401, even one sending an empty secret',
    async () => {
      const stack = await startTestStack({ worker: false });
      try {
        const body = { activityType: 'kye', userId: 'user_x', entityId: 'e' };
        const none = await stack.http('POST', '/api/webhook/activity', { body });
        const empty = await stack.http('POST', '/api/webhook/activity', {
          body,
          headers: { 'x-activity-webhook-secret': '' },
        });
        expect([none.status, empty.status]).toEqual([401, 401]);
        expect(none.body).toEqual({ error: 'Unauthorized' });
      } finally {
        await stack.stop();
      }
    },
  );
});
