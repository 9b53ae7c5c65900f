import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { bearerToken, type Credentials } from '../auth/authenticate';
import type { User } from '../db/users';
import { errorFields, type Logger } from '../logger';
import type { OutboxEvent, OutboxListener } from './outbox-listener';

export interface RealtimeDeps {
  httpServer: HttpServer;
  resolveUser: (credentials: Credentials) => Promise<User | null>;
  /** Builds the outbox relay that feeds this server; started here, stopped by close(). */
  createListener: (onEvent: (event: OutboxEvent) => void) => OutboxListener;
  log: Logger;
}

export interface Realtime {
  io: Server;
  close(): Promise<void>;
}

export const userRoom = (userId: string): string => `user:${userId}`;

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
 * socket.io on the api's HTTP server. A socket authenticates in its handshake and is put in its
 * user's room only (there is no client-side join); outbox events are emitted to that room.
 */
export async function attachRealtime({ httpServer, resolveUser, createListener, log }: RealtimeDeps): Promise<Realtime> {
  const io = new Server(httpServer, { serveClient: false });

  io.use(async (socket, next) => {
    try {
      const user = await resolveUser(handshakeCredentials(socket));
      if (!user) return next(new Error('Authentication required'));
      socket.data.userId = user.id;
      next();
    } catch (err) {
      log.error('realtime handshake failed', errorFields(err));
      next(new Error('Internal error'));
    }
  });
  io.on('connection', (socket) => void socket.join(userRoom(socket.data.userId as string)));

  const listener = createListener(({ userId, event, payload }) => {
    // Internal: a deactivated user keeps no open socket (its credentials no longer resolve).
    if (event === 'account_deactivated') io.in(userRoom(userId)).disconnectSockets(true);
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
