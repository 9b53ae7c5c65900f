import { useCallback, useEffect, useRef } from 'preact/hooks';
import type { Socket } from 'socket.io-client';
import { useRealtimeEvent } from '../realtime';
import type { CaseEvent } from './case-types';

/**
 * Calls `onEvent` for every `case_updated` and `case_escalated` of this account (an escalation sends both; the second
 * is told apart by `escalated`), and `onReconnect` when the socket comes back, since events sent meanwhile were lost.
 */
export function useCaseEvents(
  socket: Socket | null,
  onEvent: (event: CaseEvent, escalated: boolean) => void,
  onReconnect: () => void,
): void {
  useRealtimeEvent(
    socket,
    'case_updated',
    useCallback((e: CaseEvent) => onEvent(e, false), [onEvent]),
  );
  useRealtimeEvent(
    socket,
    'case_escalated',
    useCallback((e: CaseEvent) => onEvent(e, true), [onEvent]),
  );
  useEffect(() => {
    if (!socket) return undefined;
    let connectedBefore = socket.connected;
    const onConnect = () => {
      if (connectedBefore) onReconnect();
      connectedBefore = true;
    };
    socket.on('connect', onConnect);
    return () => void socket.off('connect', onConnect);
  }, [socket, onReconnect]);
}

/**
 * Runs `read` now, or once more right after the read under way: a burst of events (an alert storm, an escalation's
 * two events) costs at most two reads, and the last read always starts after the last event.
 */
export function useCoalescedRead(read: () => Promise<void>): () => void {
  const state = useRef({ running: false, again: false });
  const latest = useRef(read);
  latest.current = read;
  return useCallback(() => {
    const s = state.current;
    if (s.running) {
      s.again = true;
      return;
    }
    s.running = true;
    void (async () => {
      try {
        do {
          s.again = false;
          await latest.current();
        } while (s.again);
      } finally {
        s.running = false;
      }
    })();
  }, []);
}
