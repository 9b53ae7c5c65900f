import { io, type Socket } from 'socket.io-client';
import { recordSecret } from './run-log';

export interface RecordingSocket {
  socket: Socket;
  received: { event: string; payload: any }[];
  /** Resolves with the first (past or future) event of that name matching `match`. */
  waitFor(event: string, match?: (payload: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): void;
}

/** A real socket.io client, authenticated with `token` (API key or session JWT), recording every event it receives. */
export async function connectRecording(url: string, token: string): Promise<RecordingSocket> {
  recordSecret(token);
  const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
  const received: RecordingSocket['received'] = [];
  const waiters: { event: string; match: (p: any) => boolean; resolve: (p: any) => void }[] = [];
  socket.onAny((event: string, payload: unknown) => {
    received.push({ event, payload });
    for (const w of [...waiters]) {
      if (w.event === event && w.match(payload)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(payload);
      }
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
  return {
    socket,
    received,
    waitFor(event, match = () => true, timeoutMs = 10_000) {
      const past = received.find((r) => r.event === event && match(r.payload));
      if (past) return Promise.resolve(past.payload);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          event,
          match,
          resolve: (p) => {
            clearTimeout(timer);
            resolve(p);
          },
        });
      });
    },
    close: () => void socket.close(),
  };
}
