import { randomUUID } from 'node:crypto';
import { generateApiKey } from '../../src/identity/api-key-format';
import { API_KEY_SCOPES, type ApiKeyScope } from '../../src/identity/scopes';
import { prepareDatabase } from '../../src/app/prepare-database';
import { createLogger } from '../../src/platform/logging/logger';
import { createTestSigner } from '../helpers/jwt';
import { recordSecret } from '../helpers/run-log';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * Keys whose power cannot be multiplied: what a key may do is its scopes (every route names the one it needs),
 * an account holds at most MAX_ACTIVE_API_KEYS_PER_ACCOUNT active keys (20 by default) however many creates race,
 * and a replaced BOOTSTRAP_ADMIN_API_KEY stops working at the start that replaces it.
 */
let stack: TestStack;
const signer = createTestSigner();
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';

beforeAll(async () => {
  stack = await startTestStack({ worker: false, env: { CLERK_JWT_KEY: signer.publicKeyPem } });
}, 60_000);
afterAll(async () => stack?.stop());

/** A key of `userId` holding exactly `scopes`, made through the store (the route checks the creator's scopes). */
async function keyWith(userId: string, scopes: readonly ApiKeyScope[]): Promise<string> {
  const key = generateApiKey();
  recordSecret(key);
  await stack.stores.users.createApiKey(userId, `only ${scopes.join('+')}`, key, { scopes });
  return key;
}

const activeKeys = async (userId: string) =>
  (
    await stack.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL',
      [userId],
    )
  ).rows[0]?.n;

describe('scopes', () => {
  test(
    'when every operation of the OpenAPI document that names a scope is called with an admin key holding every ' +
      'other scope, then each answers 403 INSUFFICIENT_SCOPE, and with a key holding only that scope none does',
    async () => {
      const doc = await (await fetch(`${stack.api.url}/api/v1/openapi.json`)).json();
      const admin = await stack.createUser({ role: 'admin' });
      const allBut = new Map<ApiKeyScope, string>();
      const only = new Map<ApiKeyScope, string>();
      for (const scope of API_KEY_SCOPES) {
        allBut.set(
          scope,
          await keyWith(
            admin.id,
            API_KEY_SCOPES.filter((s) => s !== scope),
          ),
        );
        only.set(scope, await keyWith(admin.id, [scope]));
      }
      const operations: { method: string; path: string; scope: ApiKeyScope }[] = [];
      const unscoped: string[] = [];
      for (const [path, item] of Object.entries<any>(doc.paths)) {
        for (const method of METHODS) {
          const byKey = item[method]?.security?.find((r: Record<string, string[]>) => r.apiKey);
          if (!byKey) continue;
          if (byKey.apiKey[0]) operations.push({ method: method.toUpperCase(), path, scope: byKey.apiKey[0] });
          else unscoped.push(`${method.toUpperCase()} ${path}`);
        }
      }
      expect(unscoped).toEqual([]);
      // Every authenticated operation names its scope; a route without one would be reachable by any key.
      expect(operations.length).toBeGreaterThanOrEqual(27);
      expect(new Set(operations.map((o) => o.scope))).toEqual(new Set(API_KEY_SCOPES));

      const call = (op: (typeof operations)[number], key: string) =>
        stack.http(
          op.method,
          op.path.replace('{address}', SANCTIONED).replace(/\{\w+\}/g, () => randomUUID()),
          { key, ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { body: {} }) },
        );
      const refused: string[] = [];
      const wronglyRefused: string[] = [];
      for (const op of operations) {
        const without = await call(op, allBut.get(op.scope) as string);
        if (without.status === 403 && without.body.code === 'INSUFFICIENT_SCOPE')
          refused.push(`${op.method} ${op.path}`);
        const withOnly = await call(op, only.get(op.scope) as string);
        if (withOnly.body?.code === 'INSUFFICIENT_SCOPE') wronglyRefused.push(`${op.method} ${op.path}`);
      }
      expect(refused.sort()).toEqual(operations.map((o) => `${o.method} ${o.path}`).sort());
      expect(wronglyRefused).toEqual([]);
    },
  );

  test(
    'when a read-only key is created, then it is listed with its scopes and polls, history, balance and the ' +
      'key list work, while submitting a job, creating and revoking keys are 403 and change nothing',
    async () => {
      const user = await stack.createUser({ credits: 5 });
      const created = await stack.http('POST', '/api/v1/api-keys', {
        key: user.key,
        body: { name: 'dashboard widget', scopes: ['read'] },
      });
      expect([created.status, created.body.data.scopes]).toEqual([201, ['read']]);
      const reader = created.body.data.key as string;
      recordSecret(reader);

      const listed = await stack.http('GET', '/api/v1/api-keys', { key: reader });
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((k: { name: string; scopes: string[] }) => [k.name, k.scopes])).toEqual([
        ['dashboard widget', ['read']],
        // Made without scopes (as every key before them was): full access.
        ['test', ['read', 'screening', 'billing', 'keys']],
      ]);
      const me = await stack.http('GET', '/api/v1/me', { key: reader });
      expect([me.status, me.body.data.scopes]).toEqual([200, ['read']]);
      expect((await stack.http('GET', '/api/v1/credits/balance', { key: reader })).body.data.available).toBe(5);
      expect((await stack.http('GET', '/api/v1/activity', { key: reader })).status).toBe(200);
      expect((await stack.http('GET', `/api/v1/kyt/job/${randomUUID()}`, { key: reader })).status).toBe(404);

      const submit = await stack.http('POST', '/api/v1/kyt/job', {
        key: reader,
        body: { chain: 'ethereum', address: SANCTIONED },
      });
      expect([submit.status, submit.body.success, submit.body.code]).toEqual([403, false, 'INSUFFICIENT_SCOPE']);
      expect(submit.body.error).toContain('"screening" scope');
      const mint = await stack.http('POST', '/api/v1/api-keys', { key: reader, body: { name: 'escalate' } });
      expect([mint.status, mint.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
      const fullKeyId = listed.body.data.find((k: { name: string }) => k.name === 'test').id;
      const revoke = await stack.http('DELETE', `/api/v1/api-keys/${fullKeyId}`, { key: reader });
      expect([revoke.status, revoke.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);

      const jobs = await stack.pool.query('SELECT 1 FROM screening_jobs WHERE user_id = $1', [user.id]);
      expect(jobs.rows).toEqual([]);
      expect((await stack.stores.credits.balance(user.id)).reserved).toBe(0);
      expect(await activeKeys(user.id)).toBe(2);
      expect((await stack.http('GET', '/api/v1/me', { key: user.key })).status).toBe(200);
    },
  );

  test(
    'when a narrow key creates keys, then it can give them at most its own scopes, and without scopes the new ' +
      'key gets exactly its own',
    async () => {
      const user = await stack.createUser();
      const keeper = await keyWith(user.id, ['read', 'keys']);
      const wider = await stack.http('POST', '/api/v1/api-keys', {
        key: keeper,
        body: { scopes: ['read', 'screening'] },
      });
      expect([wider.status, wider.body.code, wider.body.error]).toEqual([
        403,
        'INSUFFICIENT_SCOPE',
        expect.stringContaining('"screening"'),
      ]);
      const same = await stack.http('POST', '/api/v1/api-keys', { key: keeper, body: { name: 'copy' } });
      expect([same.status, same.body.data.scopes]).toEqual([201, ['read', 'keys']]);
      recordSecret(same.body.data.key);
      // Duplicates and any order are stored once, in the canonical order.
      const narrower = await stack.http('POST', '/api/v1/api-keys', {
        key: keeper,
        body: { scopes: ['keys', 'read', 'keys'] },
      });
      expect([narrower.status, narrower.body.data.scopes]).toEqual([201, ['read', 'keys']]);
      recordSecret(narrower.body.data.key);
    },
  );

  test.each([
    [{ scopes: [] }, 'scopes'],
    [{ scopes: ['admin'] }, 'scopes.0'],
    [{ scopes: 'read' }, 'scopes'],
  ])('when the scopes are %j, then 400 INVALID_PARAMETER names %s', async (body, parameter) => {
    const user = await stack.createUser();
    const res = await stack.http('POST', '/api/v1/api-keys', { key: user.key, body });
    expect([res.status, res.body.error?.code, res.body.error?.details?.parameter]).toEqual([
      400,
      'INVALID_PARAMETER',
      parameter,
    ]);
    expect(await activeKeys(user.id)).toBe(1);
  });

  test('when a dashboard session (Clerk JWT) calls, then it holds every scope of its user', async () => {
    const token = signer.signToken({ sub: 'user_scopesSession00000001', exp: Math.floor(Date.now() / 1000) + 60 });
    const bearer = { authorization: `Bearer ${token}` };
    const me = await stack.http('GET', '/api/v1/me', { headers: bearer });
    expect([me.status, me.body.data.scopes]).toEqual([200, ['read', 'screening', 'billing', 'keys']]);
    const created = await stack.http('POST', '/api/v1/api-keys', { headers: bearer, body: { scopes: ['billing'] } });
    expect([created.status, created.body.data.scopes]).toEqual([201, ['billing']]);
    recordSecret(created.body.data.key);
  });
});

describe('at most MAX_ACTIVE_API_KEYS_PER_ACCOUNT (20) active keys per account', () => {
  test(
    'when 3 accounts of 1 key each send 30 creates at once, then each ends with exactly 20 active keys: ' +
      '19 creates answer 201 and 11 answer 409 API_KEY_LIMIT_REACHED',
    async () => {
      const users = await Promise.all([1, 2, 3].map(() => stack.createUser()));
      const answers = await Promise.all(
        users.map((user) =>
          Promise.all(
            Array.from({ length: 30 }, (_, i) =>
              stack.http('POST', '/api/v1/api-keys', { key: user.key, body: { name: `race-${i}` } }),
            ),
          ),
        ),
      );
      for (const [i, user] of users.entries()) {
        const statuses = (answers[i] ?? []).map((a) => a.status);
        for (const a of answers[i] ?? []) if (a.status === 201) recordSecret(a.body.data.key);
        expect([statuses.filter((s) => s === 201).length, statuses.filter((s) => s === 409).length]).toEqual([19, 11]);
        expect(await activeKeys(user.id)).toBe(20);
      }
      const refused = (answers[0] ?? []).find((a) => a.status === 409);
      expect(refused?.body).toEqual({
        success: false,
        error: 'This account already holds 20 active API keys, the most it may hold; revoke one to create another',
        code: 'API_KEY_LIMIT_REACHED',
      });
    },
  );

  test('when an account at the cap revokes a key, then exactly one more can be created', async () => {
    const user = await stack.createUser();
    for (let i = 2; i <= 20; i++) {
      const res = await stack.http('POST', '/api/v1/api-keys', { key: user.key, body: { name: `k${i}` } });
      expect([i, res.status]).toEqual([i, 201]);
      recordSecret(res.body.data.key);
    }
    expect((await stack.http('POST', '/api/v1/api-keys', { key: user.key })).status).toBe(409);
    const keys = await stack.http('GET', '/api/v1/api-keys', { key: user.key });
    const spare = keys.body.data.find((k: { name: string }) => k.name === 'k2').id;
    expect((await stack.http('DELETE', `/api/v1/api-keys/${spare}`, { key: user.key })).status).toBe(200);

    const again = await Promise.all(
      Array.from({ length: 5 }, () => stack.http('POST', '/api/v1/api-keys', { key: user.key })),
    );
    for (const a of again) if (a.status === 201) recordSecret(a.body.data.key);
    expect(again.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await activeKeys(user.id)).toBe(20);
  });
});

describe('BOOTSTRAP_ADMIN_API_KEY rotation', () => {
  const start = (key: string) =>
    prepareDatabase(
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
  const me = async (key: string) => {
    const res = await stack.http('GET', '/api/v1/me', { key });
    return res.status === 200
      ? { status: 200, id: res.body.data.id, role: res.body.data.role }
      : { status: res.status };
  };

  test(
    'when the value changes between starts, then the start with the new value revokes the old key, the new one ' +
      'is the same admin, and a later start with the old value does not bring it back',
    async () => {
      const [first, second] = [`bootstrap-old-${randomUUID()}`, `bootstrap-new-${randomUUID()}`];
      recordSecret(first);
      recordSecret(second);
      await start(first);
      const admin = await me(first);
      expect(admin).toMatchObject({ status: 200, role: 'admin' });

      await start(second);
      expect(await me(first)).toEqual({ status: 401 });
      expect(await me(second)).toEqual(admin);
      const rows = await stack.pool.query<{ revoked: boolean }>(
        `SELECT revoked_at IS NOT NULL AS revoked FROM api_keys WHERE bootstrap AND user_id = $1
         ORDER BY created_at`,
        [admin.id],
      );
      expect(rows.rows.slice(-2)).toEqual([{ revoked: true }, { revoked: false }]);

      // An instance still configured with the old value restarts: the rotation stands.
      await start(first);
      expect(await me(first)).toEqual({ status: 401 });
      expect(await me(second)).toEqual(admin);
      // And the current value's restarts are idempotent.
      await Promise.all([start(second), start(second)]);
      expect(await me(second)).toEqual(admin);
    },
  );
});
