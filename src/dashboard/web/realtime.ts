import { io, type Socket } from 'socket.io-client';
import { useEffect } from 'preact/hooks';
import type { Credential } from './session';

export type ConnectionState = 'connecting' | 'live' | 'offline' | 'refused';

/**
 * One socket per signed-in page, authenticated in the handshake like the HTTP API. The server puts it
 * in its own user's room, so every event that arrives here is this account's.
 */
export function connectRealtime(credential: Credential, onState: (state: ConnectionState) => void): Socket {
  const socket = io({ path: '/socket.io', auth: { token: credential.token }, transports: ['websocket', 'polling'] });
  onState('connecting');
  socket.on('connect', () => onState('live'));
  socket.on('disconnect', () => onState('offline'));
  // A refused handshake (revoked key, expired session) is final for this credential: stop retrying.
  socket.on('connect_error', (err: Error) => {
    if (/Authentication required/i.test(err.message)) {
      socket.disconnect();
      onState('refused');
    } else onState('offline');
  });
  return socket;
}

/** Subscribes a component to one realtime event for as long as it is mounted. */
export function useRealtimeEvent<T>(socket: Socket | null, event: string, handler: (payload: T) => void): void {
  useEffect(() => {
    if (!socket) return undefined;
    const listener = (payload: T) => handler(payload);
    socket.on(event, listener);
    return () => void socket.off(event, listener);
  }, [socket, event, handler]);
}
