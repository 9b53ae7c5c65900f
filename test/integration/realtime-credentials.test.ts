import { randomUUID } from 'node:crypto';
import { createTestSigner } from '../helpers/jwt';
import { connectRecording, type RecordingSocket } from '../helpers/realtime-client';
import { startTestStack, type TestStack } from '../helpers/test-stack';

const signer = createTestSigner();
let stack: TestStack;
const opened: RecordingSocket[] = [];

beforeAll(async () => {
  stack = await startTestStack({ worker: false, env: { CLERK_JWT_KEY: signer.publicKeyPem } });
});
afterAll(async () => {
  for (const s of opened) s.close();
  await stack.stop();
});

async function open(token: string): Promise<RecordingSocket> {
  const socket = await connectRecording(stack.api.url, token);
  opened.push(socket);
  return socket;
}

/** Resolves with the disconnect reason and how long after `since` it came, or rejects after `timeoutMs`. */
function disconnected(
  socket: RecordingSocket,
  since: number,
  timeoutMs: number,
): Promise<{ reason: string; afterMs: number }> {
  if (!socket.socket.connected) return Promise.resolve({ reason: 'already closed', afterMs: Date.now() - since });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still connected after ${timeoutMs} ms`)), timeoutMs);
    socket.socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve({ reason, afterMs: Date.now() - since });
    });
  });
}

describe('sockets follow their credentials', () => {
  test(
    'When the API key a socket opened with is revoked, then that socket is closed by the server and a socket on ' +
      'another key of the same user stays',
    async () => {
      // Arrange
      const user = await stack.createUser();
      const second = await stack.http('POST', '/api/v1/api-keys', { key: user.key, body: { name: 'second' } });
      const [onRevoked, onKept] = [await open(second.body.data.key), await open(user.key)];

      // Act
      const revokedAt = Date.now();
      const revoke = await stack.http('DELETE', `/api/v1/api-keys/${second.body.data.id}`, { key: user.key });

      // Assert
      expect(revoke.status).toBe(200);
      const closed = await disconnected(onRevoked, revokedAt, 10_000);
      expect(closed.reason).toBe('io server disconnect');
      await stack.stores.credits.grant({
        userId: user.id,
        amount: 2,
        idempotencyKey: `kept:${randomUUID()}`,
        reason: 'still live',
        source: 'test',
      });
      await expect(onKept.waitFor('credit_balance_updated', (p) => p.delta === 2)).resolves.toMatchObject({
        balance: 2,
      });
      expect(onKept.socket.connected).toBe(true);
      expect(onRevoked.received.map((r) => r.event)).not.toContain('credentials_revoked');
    },
  );

  test(
    'When a socket opened with a session JWT reaches the ' + 'token expiry, then the server closes it at that moment',
    async () => {
      // Arrange
      const now = Math.floor(Date.now() / 1000);
      const token = signer.signToken({ sub: `user_${randomUUID()}`, iat: now, exp: now + 3 });
      const socket = await open(token);
      const expiresAtMs = (now + 3) * 1000;

      // Act
      const closed = await disconnected(socket, Date.now(), 10_000);

      // Assert: closed at the expiry (not before it, and well within a minute after)
      expect(closed.reason).toBe('io server disconnect');
      expect(Date.now()).toBeGreaterThanOrEqual(expiresAtMs);
      expect(Date.now() - expiresAtMs).toBeLessThan(2_000);
    },
  );

  test("When a key of another user is revoked, then this user's socket is untouched", async () => {
    // Arrange
    const [mine, theirs] = [await stack.createUser(), await stack.createUser()];
    const theirSecond = await stack.http('POST', '/api/v1/api-keys', { key: theirs.key, body: { name: 'x' } });
    const socket = await open(mine.key);

    // Act
    await stack.http('DELETE', `/api/v1/api-keys/${theirSecond.body.data.id}`, { key: theirs.key });
    await new Promise((r) => setTimeout(r, 1_500));

    // Assert
    expect(socket.socket.connected).toBe(true);
  });
});
