import { randomUUID } from 'node:crypto';
import { io as connectClient, type Socket } from 'socket.io-client';
import { generateApiKey } from '../../src/identity/api-key-format';
import type { ApiKeyScope } from '../../src/identity/scopes';
import { createTestSigner } from '../helpers/jwt';
import { recordSecret } from '../helpers/run-log';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const QUIET_MS = 600;
const signer = createTestSigner();

interface Received {
  event: string;
  payload: any;
}

/** A connected socket plus every event it received, in order. */
async function connect(stack: TestStack, options: { auth?: Record<string, string>; headers?: Record<string, string> }) {
  const socket: Socket = connectClient(stack.api.url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: options.auth ?? {},
    extraHeaders: options.headers,
  });
  const received: Received[] = [];
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, received };
}

async function connectError(stack: TestStack, auth: Record<string, string>): Promise<Error> {
  const socket = connectClient(stack.api.url, { transports: ['websocket'], reconnection: false, forceNew: true, auth });
  try {
    return await new Promise<Error>((resolve, reject) => {
      socket.once('connect_error', resolve);
      socket.once('connect', () => reject(new Error('expected the handshake to be refused')));
    });
  } finally {
    socket.close();
  }
}

async function until<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const eventsNamed = (received: Received[], name: string) =>
  received.filter((r) => r.event === name).map((r) => r.payload);

describe('realtime credit events over socket.io', () => {
  let stack: TestStack;
  let admin: { id: string; key: string };
  const sockets: Socket[] = [];
  const open = async (options: Parameters<typeof connect>[1]) => {
    const conn = await connect(stack, options);
    sockets.push(conn.socket);
    return conn;
  };
  const grant = async (userId: string, amount: number, body: Record<string, unknown> = {}) => {
    const res = await stack.http('POST', '/api/v1/credits/grant', {
      key: admin.key,
      body: { userId, amount, ...body },
    });
    expect(res.status).toBe(200);
    return res.body.data as { transactionId: string; balance: number };
  };

  beforeAll(async () => {
    stack = await startTestStack({ worker: false, env: { CLERK_JWT_KEY: signer.publicKeyPem } });
    admin = await stack.createUser({ role: 'admin' });
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });
  afterAll(async () => stack.stop());

  test(
    "When an admin grants credits to A, then A's socket gets credits_granted and " +
      "credit_balance_updated and B's gets nothing",
    async () => {
      // Arrange
      const a = await stack.createUser({ credits: 10 });
      const b = await stack.createUser();
      const socketA = await open({ auth: { token: a.key } });
      const socketB = await open({ auth: { token: b.key } });

      // Act
      const granted = await grant(a.id, 25, { reason: 'goodwill' });
      await until(() => eventsNamed(socketA.received, 'credit_balance_updated')[0]);
      await sleep(QUIET_MS);

      // Assert
      expect(socketA.received.map((r) => r.event)).toEqual(['credits_granted', 'credit_balance_updated']);
      const [event] = eventsNamed(socketA.received, 'credits_granted');
      expect(event).toEqual({
        transactionId: granted.transactionId,
        amount: 25,
        balance: 35,
        source: 'admin',
        eventId: null,
        grantedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      const { rows } = await stack.pool.query<{ created_at: Date }>(
        'SELECT created_at FROM credit_transactions WHERE id = $1',
        [granted.transactionId],
      );
      expect(
        Math.abs(Date.parse(event.grantedAt) - (rows[0] as { created_at: Date }).created_at.getTime()),
      ).toBeLessThanOrEqual(1);
      expect(eventsNamed(socketA.received, 'credit_balance_updated')).toEqual([
        { balance: 35, delta: 25, reason: 'goodwill' },
      ]);
      expect(socketB.received).toEqual([]);
    },
  );

  test(
    'When a grant carries a payment event id in its ' + 'metadata, then credits_granted carries it as eventId',
    async () => {
      // Arrange
      const user = await stack.createUser();
      const socket = await open({ auth: { token: user.key } });

      // Act
      await stack.stores.credits.grant({
        userId: user.id,
        amount: 7,
        idempotencyKey: `pay:${randomUUID()}`,
        reason: null,
        source: 'paypal',
        metadata: { eventId: 'WH-123' },
      });
      const event = await until(() => eventsNamed(socket.received, 'credits_granted')[0]);
      const balance = await until(() => eventsNamed(socket.received, 'credit_balance_updated')[0]);

      // Assert
      expect(event).toMatchObject({ amount: 7, balance: 7, source: 'paypal', eventId: 'WH-123' });
      expect(balance).toEqual({ balance: 7, delta: 7, reason: 'paypal' });
    },
  );

  test('When a screening charge is consumed, then credit_balance_updated carries a negative delta', async () => {
    // Arrange
    const user = await stack.createUser({ credits: 50 });
    const socket = await open({ auth: { token: user.key } });

    // Act
    await stack.stores.credits.consume({
      userId: user.id,
      amount: 3,
      idempotencyKey: `charge:${randomUUID()}`,
      holdKey: null,
      reason: 'screening ethereum',
    });
    const event = await until(() => eventsNamed(socket.received, 'credit_balance_updated')[0]);

    // Assert
    expect(event).toEqual({ balance: 47, delta: -3, reason: 'screening ethereum' });
    expect(eventsNamed(socket.received, 'credits_granted')).toEqual([]);
  });

  test.each([
    ['auth.token with an API key', (key: string) => ({ auth: { token: key } })],
    ['auth.apiKey', (key: string) => ({ auth: { apiKey: key } })],
    ['an x-api-key header', (key: string) => ({ headers: { 'x-api-key': key } })],
    ['an Authorization: Bearer header', (key: string) => ({ headers: { authorization: `Bearer ${key}` } })],
  ])('When the handshake presents %s, then the socket joins its own room', async (_name, credentials) => {
    // Arrange
    const user = await stack.createUser();
    const socket = await open(credentials(user.key));

    // Act
    await grant(user.id, 2);

    // Assert
    expect(await until(() => eventsNamed(socket.received, 'credits_granted')[0])).toMatchObject({
      amount: 2,
      balance: 2,
    });
  });

  test(
    'When the handshake presents a Clerk session JWT, ' + 'then the user is provisioned and receives its grants',
    async () => {
      // Arrange
      const clerkId = `user_${randomUUID()}`;
      const now = Math.floor(Date.now() / 1000);
      const token = signer.signToken({ sub: clerkId, iat: now - 10, nbf: now - 10, exp: now + 60 });
      const socket = await open({ auth: { token } });
      const user = await stack.stores.users.findByAnyId(clerkId);

      // Act
      await grant(clerkId, 4);

      // Assert
      expect(user).not.toBeNull();
      expect(await until(() => eventsNamed(socket.received, 'credit_balance_updated')[0])).toEqual({
        balance: 4,
        delta: 4,
        reason: 'admin',
      });
    },
  );

  test.each([
    ['a wrong API key', { token: 'cs_live_wrongwrongwrongwrongwrongwrong' }],
    ['no credentials', {}],
    [
      'a session JWT signed by another key',
      { token: createTestSigner().signToken({ sub: 'user_x', exp: Math.floor(Date.now() / 1000) + 60 }) },
    ],
  ])(
    'When the handshake presents %s, then the connection is refused with Authentication required',
    async (_name, auth) => {
      // Act
      const err = await connectError(stack, auth);

      // Assert
      expect(err.message).toBe('Authentication required');
    },
  );

  test('When a grant is rolled back, then no event is emitted', async () => {
    // Arrange
    const user = await stack.createUser();
    const socket = await open({ auth: { token: user.key } });
    const client = await stack.pool.connect();

    // Act
    try {
      await client.query('BEGIN');
      await client.query(`SELECT * FROM grant_credits($1, 100, $2, 'rolled back', 'admin', '{}')`, [
        user.id,
        randomUUID(),
      ]);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
    await grant(user.id, 1);
    await until(() => eventsNamed(socket.received, 'credit_balance_updated')[0]);
    await sleep(QUIET_MS);

    // Assert: only the committed sentinel grant arrives
    expect(socket.received).toEqual([
      { event: 'credits_granted', payload: expect.objectContaining({ amount: 1, balance: 1 }) },
      { event: 'credit_balance_updated', payload: { balance: 1, delta: 1, reason: 'admin' } },
    ]);
  });

  test(
    'When a grant commits after a later one, then both ' + 'are delivered (a seq read out of order is not skipped)',
    async () => {
      // Arrange
      const a = await stack.createUser();
      const b = await stack.createUser();
      const socketA = await open({ auth: { token: a.key } });
      const socketB = await open({ auth: { token: b.key } });
      const slow = await stack.pool.connect();

      // Act
      try {
        await slow.query('BEGIN');
        await slow.query(`SELECT * FROM grant_credits($1, 5, $2, 'slow', 'admin', '{}')`, [a.id, randomUUID()]);
        await grant(b.id, 6);
        await until(() => eventsNamed(socketB.received, 'credit_balance_updated')[0]);
        await slow.query('COMMIT');
      } finally {
        slow.release();
      }

      // Assert
      expect(await until(() => eventsNamed(socketA.received, 'credit_balance_updated')[0])).toEqual({
        balance: 5,
        delta: 5,
        reason: 'slow',
      });
    },
  );

  test(
    'When the two events of a grant straddle a power ' + 'of ten in seq, then they still arrive in seq order',
    async () => {
      // Arrange: the next two seqs become 10^k - 1 and 10^k (text order would swap them)
      const user = await stack.createUser();
      const socket = await open({ auth: { token: user.key } });
      const { rows } = await stack.pool.query<{ last: number }>(
        'SELECT last_value AS last FROM realtime_events_seq_seq',
      );
      const power = 10 ** String((rows[0] as { last: number }).last + 2).length;
      await stack.pool.query(`SELECT setval('realtime_events_seq_seq', $1)`, [power - 2]);

      // Act
      await grant(user.id, 8);
      await until(() => (socket.received.length === 2 ? true : undefined));

      // Assert
      expect(socket.received.map((r) => r.event)).toEqual(['credits_granted', 'credit_balance_updated']);
    },
  );

  test(
    "When the listener's Postgres connection is terminated, " +
      'then it reconnects and a later grant is still delivered',
    async () => {
      // Arrange
      const user = await stack.createUser();
      const socket = await open({ auth: { token: user.key } });
      // Every api of this run listens under this name; each one reconnects, so terminating them all is safe.
      const before = await stack.pool.query<{ pid: number }>(
        `SELECT pg_terminate_backend(pid), pid FROM pg_stat_activity WHERE application_name = 'chainscreen-realtime'`,
      );

      // Act: granted while the listener is (most likely) still away, so only the catch-up can deliver it
      await grant(user.id, 9);
      const event = await until(() => eventsNamed(socket.received, 'credits_granted')[0], 20_000);

      // Assert
      expect(before.rows.length).toBeGreaterThan(0);
      expect(event).toMatchObject({ amount: 9, balance: 9 });
      const after = await stack.pool.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = 'chainscreen-realtime'`,
      );
      expect(after.rows.map((r) => r.pid)).not.toEqual(expect.arrayContaining(before.rows.map((r) => r.pid)));
    },
  );

  test("When a user is deactivated, then the user's sockets are disconnected by the server", async () => {
    // Arrange
    const user = await stack.createUser();
    const other = await stack.createUser();
    const socket = await open({ auth: { token: user.key } });
    const bystander = await open({ auth: { token: other.key } });
    const disconnected = new Promise<string>((resolve) => socket.socket.once('disconnect', resolve));

    // Act
    await stack.pool.query(`UPDATE users SET status = 'deactivated' WHERE id = $1`, [user.id]);

    // Assert
    expect(await disconnected).toBe('io server disconnect');
    await sleep(QUIET_MS);
    expect(bystander.socket.connected).toBe(true);
    expect(socket.received).toEqual([]);
    expect((await connectError(stack, { token: user.key })).message).toBe('Authentication required');
  });

  test(
    'When a key without the read scope opens a socket, then the handshake is refused with the 403 the HTTP API ' +
      'gives that key, and only a key holding read receives the balance events',
    async () => {
      // Arrange
      const user = await stack.createUser();
      const keyWith = async (scopes: ApiKeyScope[]) => {
        const key = generateApiKey();
        recordSecret(key);
        await stack.stores.users.createApiKey(user.id, scopes.join('+'), key, { scopes });
        return key;
      };
      const submitOnly = await keyWith(['screening']);
      const readOnly = await keyWith(['read']);
      const overHttp = await stack.http('GET', '/api/v1/credits/balance', { key: submitOnly });

      // Act
      const byToken = (await connectError(stack, { token: submitOnly })) as Error & { data?: unknown };
      const byApiKey = (await connectError(stack, { apiKey: submitOnly })) as Error & { data?: unknown };
      const reader = await open({ auth: { token: readOnly } });
      await grant(user.id, 4);

      // Assert
      expect([overHttp.status, overHttp.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
      for (const refused of [byToken, byApiKey]) {
        expect([refused.message, refused.data]).toEqual([overHttp.body.error, { code: 'INSUFFICIENT_SCOPE' }]);
      }
      await expect(until(() => eventsNamed(reader.received, 'credit_balance_updated')[0])).resolves.toMatchObject({
        balance: 4,
        delta: 4,
      });
    },
  );
});

describe('grant_credits under concurrency', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
  });
  afterAll(async () => stack.stop());

  const grantSql = (userId: string, amount: number, key: string) =>
    stack.pool.query<{ transaction_id: string; balance: number; duplicate: boolean }>(
      `SELECT * FROM grant_credits($1, $2, $3, 'concurrency', 'test', '{}')`,
      [userId, amount, key],
    );

  test(
    'When 20 calls race with the same idempotency key, then one grant happens and its ' +
      'balance_after equals the balance',
    async () => {
      // Arrange
      const user = await stack.createUser();
      const key = `race:${randomUUID()}`;

      // Act
      const results = (await Promise.all(Array.from({ length: 20 }, () => grantSql(user.id, 30, key)))).map(
        (r) => r.rows[0]!,
      );

      // Assert
      expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
      expect(new Set(results.map((r) => r.transaction_id)).size).toBe(1);
      expect(results.every((r) => r.balance === 30)).toBe(true);
      const ledger = await stack.pool.query('SELECT balance_after FROM credit_transactions WHERE user_id = $1', [
        user.id,
      ]);
      expect(ledger.rows).toEqual([{ balance_after: 30 }]);
      expect((await stack.stores.credits.balance(user.id)).balance).toBe(30);
      const outbox = await stack.pool.query('SELECT event FROM realtime_events WHERE user_id = $1 ORDER BY seq', [
        user.id,
      ]);
      expect(outbox.rows.map((r) => r.event)).toEqual(['credits_granted', 'credit_balance_updated']);
    },
  );

  test('When 20 grants with distinct keys race, then every ledger row carries its own running balance', async () => {
    // Arrange
    const user = await stack.createUser();

    // Act
    await Promise.all(Array.from({ length: 20 }, (_, i) => grantSql(user.id, i + 1, `race:${randomUUID()}`)));

    // Assert
    const ledger = await stack.pool.query<{ amount: number; balance_after: number }>(
      'SELECT amount, balance_after FROM credit_transactions WHERE user_id = $1 ORDER BY balance_after',
      [user.id],
    );
    let running = 0;
    for (const row of ledger.rows) {
      running += row.amount;
      expect(row.balance_after).toBe(running);
    }
    expect((await stack.stores.credits.balance(user.id)).balance).toBe(210);
  });

  test('When the amount is not positive, then grant_credits refuses it with SQLSTATE 22023', async () => {
    // Arrange
    const user = await stack.createUser();

    // Act
    const err = await grantSql(user.id, 0, `zero:${randomUUID()}`).catch((e: unknown) => e as { code?: string });

    // Assert
    expect(err).toMatchObject({ code: '22023' });
  });
});
