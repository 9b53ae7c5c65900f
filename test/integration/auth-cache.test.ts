import type { Pool } from 'pg';
import { startApiServer, type ApiServer } from '../../src/app/api-server';
import { createPool } from '../../src/platform/db/pool';
import { createLogger } from '../../src/platform/logging/logger';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * Cached credentials (AUTH_CACHE_TTL_MS) never outlive a change: two api instances on one database, with a TTL of a
 * minute so that only the drop on the change (not the TTL) can explain a refusal. The instance that makes the change
 * refuses at once; the other as soon as the change's outbox NOTIFY reaches its listener.
 */
let stack: TestStack;
let otherPool: Pool;
let other: ApiServer;
/**
 * How late the other instance may see a change: the NOTIFY's trip plus a loaded CI machine's event loop (1.3 s was
 * seen once). Still twelve times under the TTL, so a refusal within it can only come from the drop on the event.
 */
const LISTENER_DELAY_BOUND_MS = 5_000;

beforeAll(async () => {
  stack = await startTestStack({ worker: false, env: { AUTH_CACHE_TTL_MS: '60000' } });
  otherPool = createPool(stack.config.DATABASE_URL as string, 4);
  other = await startApiServer({
    config: stack.config,
    pool: otherPool,
    temporal: stack.temporal,
    log: createLogger('silent'),
  });
}, 60_000);
afterAll(async () => {
  await other?.close();
  await otherPool?.end();
  await stack?.stop();
});

async function status(baseUrl: string, path: string, key: string, init: RequestInit = {}): Promise<number> {
  const res = await fetch(`${baseUrl}${path}`, { ...init, headers: { 'x-api-key': key, ...init.headers } });
  await res.arrayBuffer();
  return res.status;
}

/** The first status other than `from` and how long it took to come, polling as fast as a client could. */
async function untilChanged(read: () => Promise<number>, from: number): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  for (;;) {
    const now = await read();
    const ms = Date.now() - started;
    if (now !== from || ms > LISTENER_DELAY_BOUND_MS * 5) return { status: now, ms };
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function keyIdOf(key: string): Promise<string> {
  const list = await stack.http('GET', '/api/v1/api-keys', { key });
  return list.body.data[0].id;
}

test('when a key is revoked through the API, then its very next request on that instance is 401', async () => {
  // Arrange: the key is cached on this instance
  const user = await stack.createUser();
  expect(await status(stack.api.url, '/api/v1/me', user.key)).toBe(200);
  const keyId = await keyIdOf(user.key);

  // Act
  const revoke = await stack.http('DELETE', `/api/v1/api-keys/${keyId}`, { key: user.key });
  const next = await status(stack.api.url, '/api/v1/me', user.key);

  // Assert
  expect(revoke.status).toBe(200);
  expect(next).toBe(401);
});

test('when a key is revoked on instance A, then instance B refuses it within the listener delay', async () => {
  // Arrange: both instances have it cached
  const user = await stack.createUser();
  expect(await status(stack.api.url, '/api/v1/me', user.key)).toBe(200);
  expect(await status(other.url, '/api/v1/me', user.key)).toBe(200);
  const keyId = await keyIdOf(user.key);

  // Act
  expect((await stack.http('DELETE', `/api/v1/api-keys/${keyId}`, { key: user.key })).status).toBe(200);
  const onB = await untilChanged(() => status(other.url, '/api/v1/me', user.key), 200);

  // Assert
  expect(onB.status).toBe(401);
  expect(onB.ms).toBeLessThan(LISTENER_DELAY_BOUND_MS);
  expect(await status(stack.api.url, '/api/v1/me', user.key)).toBe(401);
});

test(
  'when a user is deactivated in the database, ' + 'then every instance refuses its keys within the listener delay',
  async () => {
    // Arrange
    const user = await stack.createUser();
    expect(await status(stack.api.url, '/api/v1/me', user.key)).toBe(200);
    expect(await status(other.url, '/api/v1/me', user.key)).toBe(200);

    // Act: the way a Clerk user.deleted (applied by a worker) or an operator changes it, outside any api
    await stack.pool.query(`UPDATE users SET status = 'deactivated' WHERE id = $1`, [user.id]);
    const [onA, onB] = await Promise.all([
      untilChanged(() => status(stack.api.url, '/api/v1/me', user.key), 200),
      untilChanged(() => status(other.url, '/api/v1/me', user.key), 200),
    ]);

    // Assert
    expect([onA.status, onB.status]).toEqual([401, 401]);
    expect(Math.max(onA.ms, onB.ms)).toBeLessThan(LISTENER_DELAY_BOUND_MS);
  },
);

test(
  "when a key's scopes are narrowed in the database, " + 'then the next requests are held to the new scopes',
  async () => {
    // Arrange
    const user = await stack.createUser();
    const me = () => status(stack.api.url, '/api/v1/me', user.key);
    expect(await me()).toBe(200);

    // Act: without `read`, /me is 403 INSUFFICIENT_SCOPE
    await stack.pool.query(`UPDATE api_keys SET scopes = ARRAY['keys'] WHERE user_id = $1`, [user.id]);
    const changed = await untilChanged(me, 200);

    // Assert
    expect(changed.status).toBe(403);
    expect(changed.ms).toBeLessThan(LISTENER_DELAY_BOUND_MS);
  },
);

test(
  "when an admin sets a key's tier, " + "then that instance's next market request is counted at the new tier",
  async () => {
    // Arrange
    const admin = await stack.createUser({ role: 'admin' });
    const user = await stack.createUser();
    const capabilities = async () =>
      (
        await fetch(`${stack.api.url}/api/v1/capabilities`, { headers: { authorization: `Bearer ${user.key}` } })
      ).headers.get('ratelimit-limit');
    expect(await capabilities()).toBe('60');
    const keyId = await keyIdOf(user.key);

    // Act
    const set = await stack.http('PUT', `/api/v1/api-keys/${keyId}/rate-limit`, {
      key: admin.key,
      body: { tier: 'pro' },
    });
    const limit = await capabilities();

    // Assert
    expect(set.status).toBe(200);
    expect(limit).toBe('300');
  },
);

test(
  "when a user's role changes in the database, " + 'then every instance answers the new role within the listener delay',
  async () => {
    // Arrange
    const user = await stack.createUser();
    const role = async (baseUrl: string) =>
      (await (await fetch(`${baseUrl}/api/v1/me`, { headers: { 'x-api-key': user.key } })).json()).data.role;
    expect([await role(stack.api.url), await role(other.url)]).toEqual(['user', 'user']);

    // Act
    await stack.pool.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [user.id]);
    const started = Date.now();
    let seen: string[] = [];
    while (Date.now() - started < LISTENER_DELAY_BOUND_MS * 5) {
      seen = [await role(stack.api.url), await role(other.url)];
      if (seen.every((r) => r === 'admin')) break;
    }

    // Assert
    expect(seen).toEqual(['admin', 'admin']);
    expect(Date.now() - started).toBeLessThan(LISTENER_DELAY_BOUND_MS);
  },
);

test('when a cached key is used, then its last_used_at is still stamped', async () => {
  // Arrange
  const user = await stack.createUser();

  // Act
  for (let i = 0; i < 5; i++) expect(await status(stack.api.url, '/api/v1/me', user.key)).toBe(200);

  // Assert
  const { rows } = await stack.pool.query<{ last_used_at: Date | null }>(
    'SELECT last_used_at FROM api_keys WHERE user_id = $1',
    [user.id],
  );
  const lastUsedAt = rows[0]?.last_used_at;
  expect(lastUsedAt).toBeInstanceOf(Date);
  expect(Date.now() - (lastUsedAt as Date).getTime()).toBeLessThan(60_000);
});
