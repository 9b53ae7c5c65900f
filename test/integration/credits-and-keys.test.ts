import { randomUUID } from 'node:crypto';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { prepareDatabase } from '../../src/app/prepare-database';
import { createLogger } from '../../src/platform/logging/logger';

describe('credits REST and the API keys area', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
  });
  afterAll(async () => stack.stop());

  test('when a non-admin grants credits, then 403 INSUFFICIENT_PERMISSIONS and nothing changes', async () => {
    const user = await stack.createUser();
    const res = await stack.http('POST', '/api/v1/credits/grant', {
      key: user.key,
      body: { userId: user.id, amount: 100 },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, error: 'Admin privileges required', code: 'INSUFFICIENT_PERMISSIONS' });
    expect((await stack.stores.credits.balance(user.id)).balance).toBe(0);
  });

  test(
    'when an admin grants by Clerk id with an idempotency key twice, ' +
      'then the user is credited once with one transaction',
    async () => {
      const admin = await stack.createUser({ role: 'admin' });
      const clerkId = `user_${randomUUID()}`;
      const user = await stack.createUser({ clerkUserId: clerkId });
      const body = { userId: clerkId, amount: 25, reason: 'goodwill', idempotencyKey: 'grant-1' };

      const first = await stack.http('POST', '/api/v1/credits/grant', { key: admin.key, body });
      const second = await stack.http('POST', '/api/v1/credits/grant', { key: admin.key, body });

      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        success: true,
        data: { userId: user.id, balance: 25, transactionId: expect.any(String), duplicate: false },
      });
      expect(second.body.data).toEqual({ ...first.body.data, duplicate: true });
      const balance = await stack.http('GET', '/api/v1/credits/balance', { key: user.key });
      expect(balance.body).toEqual({ success: true, data: { balance: 25, reserved: 0, available: 25, debt: 0 } });
    },
  );

  test('when an idempotency key is reused for a different amount, then 409 and no second grant', async () => {
    const admin = await stack.createUser({ role: 'admin' });
    const user = await stack.createUser();
    await stack.http('POST', '/api/v1/credits/grant', {
      key: admin.key,
      body: { userId: user.id, amount: 5, idempotencyKey: 'k' },
    });
    const res = await stack.http('POST', '/api/v1/credits/grant', {
      key: admin.key,
      body: { userId: user.id, amount: 50, idempotencyKey: 'k' },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await stack.stores.credits.balance(user.id)).balance).toBe(5);
  });

  test.each([
    [{ userId: 'x', amount: 0 }, 'amount'],
    [{ userId: 'x', amount: 1.5 }, 'amount'],
    [{ userId: 'x', amount: '10' }, 'amount'],
    [{ amount: 10 }, 'userId'],
  ])('when the grant body is %j, then 400 names %s', async (body, parameter) => {
    const admin = await stack.createUser({ role: 'admin' });
    const res = await stack.http('POST', '/api/v1/credits/grant', { key: admin.key, body });
    expect(res.status).toBe(400);
    expect(res.body.error.details.parameter).toBe(parameter);
  });

  test('when the user does not exist, then 404', async () => {
    const admin = await stack.createUser({ role: 'admin' });
    const res = await stack.http('POST', '/api/v1/credits/grant', {
      key: admin.key,
      body: { userId: 'user_nobody', amount: 1 },
    });
    expect(res.status).toBe(404);
  });

  test('when BOOTSTRAP_ADMIN_API_KEY is configured, then start-up makes it an admin key, idempotently', async () => {
    const key = `bootstrap-${randomUUID()}`;
    await prepareDatabase(
      {
        LOAD_REFERENCE_DATA: false,
        REFERENCE_DATA_DIR: 'data/risk',
        LOAD_MARKET_DATA: false,
        MARKET_DATA_DIR: 'data/market',
        BOOTSTRAP_ADMIN_API_KEY: key,
      },
      stack.pool,
      createLogger('silent'),
    );
    await prepareDatabase(
      {
        LOAD_REFERENCE_DATA: false,
        REFERENCE_DATA_DIR: 'data/risk',
        LOAD_MARKET_DATA: false,
        MARKET_DATA_DIR: 'data/market',
        BOOTSTRAP_ADMIN_API_KEY: key,
      },
      stack.pool,
      createLogger('silent'),
    );
    const me = await stack.http('GET', '/api/v1/me', { key });
    expect(me.body.data.role).toBe('admin');
    const user = await stack.createUser();
    const grant = await stack.http('POST', '/api/v1/credits/grant', { key, body: { userId: user.id, amount: 3 } });
    expect(grant.body.data.balance).toBe(3);
  });

  test(
    'when a user creates, lists and revokes keys, then the key is shown once, only its prefix after, ' +
      'and others cannot revoke it',
    async () => {
      const user = await stack.createUser();
      const other = await stack.createUser();

      const created = await stack.http('POST', '/api/v1/api-keys', { key: user.key, body: { name: 'ci' } });
      expect(created.status).toBe(201);
      expect(created.body.data.key).toMatch(/^cs_live_/);
      const newKey = created.body.data.key as string;
      expect((await stack.http('GET', '/api/v1/me', { key: newKey })).body.data.id).toBe(user.id);

      const list = await stack.http('GET', '/api/v1/api-keys', { key: user.key });
      expect(list.body.data.map((k: any) => k.name).sort()).toEqual(['ci', 'test']);
      expect(JSON.stringify(list.body)).not.toContain(newKey);
      const { rows } = await stack.pool.query(
        'SELECT count(*)::int AS n FROM api_keys WHERE key_prefix = $1 AND key_hash IS NOT NULL',
        [created.body.data.prefix],
      );
      expect(rows[0].n).toBe(1);

      expect((await stack.http('DELETE', `/api/v1/api-keys/${created.body.data.id}`, { key: other.key })).status).toBe(
        404,
      );
      expect((await stack.http('DELETE', `/api/v1/api-keys/${created.body.data.id}`, { key: user.key })).status).toBe(
        200,
      );
      expect((await stack.http('GET', '/api/v1/me', { key: newKey })).status).toBe(401);
    },
  );

  test(
    'when a route does not exist, then 401 without a key (routes are not disclosed) ' +
      'and 404 in the flat shape with one',
    async () => {
      expect((await stack.http('GET', '/api/v1/nope')).status).toBe(401);
      const user = await stack.createUser();
      const res = await stack.http('GET', '/api/v1/nope', { key: user.key });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
    },
  );
});
