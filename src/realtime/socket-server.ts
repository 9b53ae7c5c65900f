import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import {
  bearerToken,
  InsufficientScopeError,
  scopesOf,
  type ApiKeyScope,
  type Credentials,
  type Identity,
} from '../identity';
import { errorFields, type Logger } from '../platform/logging/logger';
import type { OutboxEvent, OutboxListener } from './outbox-listener';

export interface RealtimeDeps {
  httpServer: HttpServer;
  resolveIdentity: (credentials: Credentials) => Promise<Identity | null>;
  /** Builds the outbox relay that feeds this server; started here, stopped by close(). */
  createListener: (onEvent: (event: OutboxEvent) => void) => OutboxListener;
  log: Logger;
}

export interface Realtime {
  io: Server;
  close(): Promise<void>;
}

export const userRoom = (userId: string): string => `user:${userId}`;
/**
 * The sockets a person opened, in whatever account (team) they act: never emitted to, only closed or re-checked when
 * an identity event names the person rather than an account (their deletion, their email changed).
 */
export const memberRoom = (memberId: string): string => `member:${memberId}`;

// setTimeout's ceiling (about 24.8 days); a later expiry is simply not scheduled from this process.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A socket opened with a session JWT closes when the token expires; the client must reconnect with a fresh one. */
function closeAtExpiry(socket: Socket): void {
  const expiresAt = socket.data.expiresAt as number | undefined;
  if (expiresAt === undefined) return;
  const delay = expiresAt * 1000 - Date.now();
  if (delay > MAX_TIMER_MS) return;
  const timer = setTimeout(() => socket.disconnect(true), Math.max(0, delay));
  timer.unref();
  socket.once('disconnect', () => clearTimeout(timer));
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** auth.token (API key or session JWT) or auth.apiKey; else the same headers as the HTTP API. */
function handshakeCredentials(socket: Socket): Credentials {
  const auth = socket.handshake.auth as Record<string, unknown>;
  const headers = socket.handshake.headers;
  const token = text(auth.token);
  if (token) return { bearer: token };
  const apiKey = text(auth.apiKey) ?? text(headers['x-api-key']);
  if (apiKey) return { apiKey };
  return { bearer: bearerToken(headers.authorization) ?? undefined };
}

/**
 * The handshake's refusal of a key without `scope`, worded as the HTTP API's 403: the client's connect_error carries
 * the same message, and `data.code` the same code.
 */
function scopeRefusal(scope: ApiKeyScope): Error {
  const refused = new InsufficientScopeError(scope);
  return Object.assign(new Error(refused.message), { data: { code: refused.code } });
}

/**
 * socket.io on the api's HTTP server. A socket authenticates in its handshake and is put in its
 * user's room only (there is no client-side join); outbox events are emitted to that room.
 */
export async function attachRealtime({
  httpServer,
  resolveIdentity,
  createListener,
  log,
}: RealtimeDeps): Promise<Realtime> {
  const io = new Server(httpServer, { serveClient: false });

  io.use(async (socket, next) => {
    try {
      const credentials = handshakeCredentials(socket);
      const identity = await resolveIdentity(credentials);
      if (!identity) return next(new Error('Authentication required'));
      // A socket receives what the `read` scope reads over HTTP (balance, jobs, history, monitors).
      if (!scopesOf(identity.user).includes('read')) return next(scopeRefusal('read'));
      socket.data.userId = identity.user.id;
      socket.data.memberId = identity.user.member?.id;
      socket.data.credentials = credentials;
      socket.data.expiresAt = identity.expiresAt;
      next();
    } catch (err) {
      log.error('realtime handshake failed', errorFields(err));
      next(new Error('Internal error'));
    }
  });
  // The account's room: every member signed into the account receives its events.
  io.on('connection', (socket) => {
    const memberId = socket.data.memberId as string | undefined;
    void socket.join(
      memberId
        ? [userRoom(socket.data.userId as string), memberRoom(memberId)]
        : userRoom(socket.data.userId as string),
    );
    closeAtExpiry(socket);
  });

  /**
   * A revoked key's sockets close: the owner's sockets (the account's, and the person's in other accounts) are
   * re-checked and those whose credentials no longer resolve are dropped; so are a removed member's.
   */
  const recheckUserSockets = async (userId: string) => {
    for (const socket of await io.in([userRoom(userId), memberRoom(userId)]).fetchSockets()) {
      const identity = await resolveIdentity(socket.data.credentials as Credentials).catch((err: unknown) => {
        log.warn('realtime credential re-check failed; the socket stays until the next change', errorFields(err));
        return undefined;
      });
      if (identity === null) socket.disconnect(true);
    }
  };

  const listener = createListener(({ userId, event, payload }) => {
    // Internal events, never forwarded: a deactivated user keeps no open socket, a revoked key none of its own.
    if (event === 'account_deactivated') io.in([userRoom(userId), memberRoom(userId)]).disconnectSockets(true);
    else if (event === 'credentials_revoked' || event === 'credentials_changed') void recheckUserSockets(userId);
    else io.to(userRoom(userId)).emit(event, payload);
  });
  await listener.start();

  return {
    io,
    async close() {
      await listener.stop();
      await io.close().catch(() => undefined);
    },
  };
}
