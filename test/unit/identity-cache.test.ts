import { createIdentityResolver, type Identity } from '../../src/identity/authenticate';
import { createIdentityCache, type IdentityCache } from '../../src/identity/identity-cache';
import type { User, UserStore } from '../../src/identity/users-store';

const KEY = 'cs_live_cached-key-0000000000000000000000';

function userWithKey(overrides: Partial<User> = {}): User {
  return {
    id: 'user-1',
    clerkUserId: null,
    email: null,
    role: 'user',
    status: 'active',
    apiKey: { id: 'key-1', rateLimitTier: 'free', requestsPerMinute: null, scopes: ['read', 'screening'] },
    ...overrides,
  };
}

/** A user store whose only lookups are counted: every call is a query the cache did not save. */
function countingUsers(answer: () => User | null) {
  const calls = { findByApiKey: 0, provisionClerkUser: 0 };
  const users = {
    findByApiKey: async () => {
      calls.findByApiKey++;
      return answer();
    },
    provisionClerkUser: async () => {
      calls.provisionClerkUser++;
      return userWithKey({ apiKey: undefined, clerkUserId: 'user_clerk' });
    },
  } as unknown as UserStore;
  return { users, calls };
}

function listeningCache(options: { ttlMs?: number; now?: () => number; maxEntries?: number } = {}): IdentityCache {
  const cache = createIdentityCache({ ttlMs: 5_000, ...options });
  cache.setListening(true);
  return cache;
}

describe('the identity cache', () => {
  test('when a key is resolved twice within the TTL, then the store is asked once', async () => {
    // Arrange
    const { users, calls } = countingUsers(() => userWithKey());
    const resolve = createIdentityResolver({ users, identityCache: listeningCache() });

    // Act
    const first = await resolve({ apiKey: KEY });
    const second = await resolve({ bearer: KEY });

    // Assert
    expect(calls.findByApiKey).toBe(1);
    expect(second?.user).toEqual(first?.user);
  });

  test('when the TTL has passed, then the store is asked again', async () => {
    // Arrange
    let clock = 1_000_000;
    const { users, calls } = countingUsers(() => userWithKey());
    const resolve = createIdentityResolver({ users, identityCache: listeningCache({ now: () => clock }) });

    // Act
    await resolve({ apiKey: KEY });
    clock += 5_000;
    await resolve({ apiKey: KEY });

    // Assert
    expect(calls.findByApiKey).toBe(2);
  });

  test('when a key is unknown, then nothing is kept: the next request asks again', async () => {
    // Arrange
    const { users, calls } = countingUsers(() => null);
    const resolve = createIdentityResolver({ users, identityCache: listeningCache() });

    // Act
    const answers = [await resolve({ apiKey: KEY }), await resolve({ apiKey: KEY })];

    // Assert
    expect(answers).toEqual([null, null]);
    expect(calls.findByApiKey).toBe(2);
  });

  test.each([
    ['credentials_revoked', { apiKeyId: 'key-1' }],
    ['credentials_changed', { apiKeyId: 'key-1' }],
    ['credentials_changed', {}],
    ['account_deactivated', {}],
  ])('when a %s event of the user arrives, then its cached credentials are read again', async (event, payload) => {
    // Arrange
    const { users, calls } = countingUsers(() => userWithKey());
    const cache = listeningCache();
    const resolve = createIdentityResolver({ users, identityCache: cache });
    await resolve({ apiKey: KEY });

    // Act
    cache.observe({ event, userId: 'user-1', payload });
    await resolve({ apiKey: KEY });

    // Assert
    expect(calls.findByApiKey).toBe(2);
  });

  test("when another user's or a non-credential event arrives, then the entry stays", async () => {
    // Arrange
    const { users, calls } = countingUsers(() => userWithKey());
    const cache = listeningCache();
    const resolve = createIdentityResolver({ users, identityCache: cache });
    await resolve({ apiKey: KEY });

    // Act
    cache.observe({ event: 'credentials_revoked', userId: 'user-2', payload: { apiKeyId: 'key-2' } });
    cache.observe({ event: 'credit_balance_updated', userId: 'user-1', payload: {} });
    await resolve({ apiKey: KEY });

    // Assert
    expect(calls.findByApiKey).toBe(1);
  });

  test('when a key is forgotten by its id, then the next request reads it again', async () => {
    // Arrange
    const { users, calls } = countingUsers(() => userWithKey());
    const cache = listeningCache();
    const resolve = createIdentityResolver({ users, identityCache: cache });
    await resolve({ apiKey: KEY });

    // Act
    cache.forgetKey('key-1');
    await resolve({ apiKey: KEY });

    // Assert
    expect(calls.findByApiKey).toBe(2);
  });

  test('when a revocation arrives while a lookup is under way, then what that lookup read is not kept', async () => {
    // Arrange: the lookup's read predates the revocation, its answer arrives after the event.
    let release: (user: User) => void = () => undefined;
    let calls = 0;
    const users = {
      findByApiKey: () => {
        calls++;
        return calls === 1 ? new Promise<User>((r) => (release = r)) : Promise.resolve(null);
      },
    } as unknown as UserStore;
    const cache = listeningCache();
    const resolve = createIdentityResolver({ users, identityCache: cache });

    // Act
    const inFlight = resolve({ apiKey: KEY });
    cache.observe({ event: 'credentials_revoked', userId: 'user-1', payload: { apiKeyId: 'key-1' } });
    release(userWithKey());
    await inFlight;
    const after = await resolve({ apiKey: KEY });

    // Assert
    expect(after).toBeNull();
    expect(calls).toBe(2);
  });

  test('when the listener is not listening, then nothing is served from the cache or kept in it', async () => {
    // Arrange
    const { users, calls } = countingUsers(() => userWithKey());
    const cache = listeningCache();
    const resolve = createIdentityResolver({ users, identityCache: cache });
    await resolve({ apiKey: KEY });

    // Act
    cache.setListening(false);
    await resolve({ apiKey: KEY });
    await resolve({ apiKey: KEY });
    cache.setListening(true);
    await resolve({ apiKey: KEY });
    await resolve({ apiKey: KEY });

    // Assert: 1 before, 2 while not listening, 1 after (then a hit)
    expect(calls.findByApiKey).toBe(4);
  });

  test('when the TTL is 0, then every request asks the store', async () => {
    // Arrange
    const { users, calls } = countingUsers(() => userWithKey());
    const resolve = createIdentityResolver({ users, identityCache: listeningCache({ ttlMs: 0 }) });

    // Act
    await resolve({ apiKey: KEY });
    await resolve({ apiKey: KEY });

    // Assert
    expect(calls.findByApiKey).toBe(2);
  });

  test('when more credentials than the bound are resolved, then the oldest is dropped first', async () => {
    // Arrange
    const { users, calls } = countingUsers(() => userWithKey());
    const resolve = createIdentityResolver({ users, identityCache: listeningCache({ maxEntries: 2 }) });

    // Act
    for (const key of ['k1', 'k2', 'k3']) await resolve({ apiKey: key });
    await resolve({ apiKey: 'k3' });
    await resolve({ apiKey: 'k1' });

    // Assert: k3 was a hit, k1 had been dropped
    expect(calls.findByApiKey).toBe(4);
  });

  test('when an API key and a session token are the same text, then neither is answered from the other', async () => {
    // Arrange: a JWT-shaped string sent as x-api-key is looked up as a key (and is none), as a Bearer it is a session.
    const jwt = 'aaaa.bbbb.cccc';
    const { users, calls } = countingUsers(() => null);
    const verifySessionToken = () => ({ userId: 'user_clerk', sessionId: null, email: null, expiresAt: 4_000_000_000 });
    const resolve = createIdentityResolver({ users, verifySessionToken, identityCache: listeningCache() });

    // Act
    const asSession = await resolve({ bearer: jwt });
    const asKey = await resolve({ apiKey: jwt });

    // Assert
    expect(asSession?.user.clerkUserId).toBe('user_clerk');
    expect(asKey).toBeNull();
    expect(calls).toEqual({ findByApiKey: 1, provisionClerkUser: 1 });
  });

  test('when a session token is cached, then it is kept no longer than its exp', async () => {
    // Arrange
    let clock = 1_000_000_000;
    const { users, calls } = countingUsers(() => null);
    const expiresAt = clock / 1000 + 2;
    const verifySessionToken = () => ({ userId: 'user_clerk', sessionId: null, email: null, expiresAt });
    const resolve = createIdentityResolver({
      users,
      verifySessionToken,
      identityCache: listeningCache({ now: () => clock }),
    });

    // Act
    const first: Identity | null = await resolve({ bearer: 'aaaa.bbbb.cccc' });
    clock += 1_000;
    await resolve({ bearer: 'aaaa.bbbb.cccc' });
    clock += 1_000;
    await resolve({ bearer: 'aaaa.bbbb.cccc' });

    // Assert
    expect(first?.expiresAt).toBe(expiresAt);
    expect(calls.provisionClerkUser).toBe(2);
  });

  test('when a cached user is served, then no request can change it for the others', async () => {
    // Arrange
    const { users } = countingUsers(() => userWithKey());
    const resolve = createIdentityResolver({ users, identityCache: listeningCache() });
    const identity = await resolve({ apiKey: KEY });

    // Act / Assert
    expect(() => {
      (identity?.user as { role: string }).role = 'admin';
    }).toThrow(TypeError);
    expect(Object.isFrozen(identity?.user.apiKey?.scopes)).toBe(true);
  });
});
