import { useEffect } from 'preact/hooks';
import type { Socket } from 'socket.io-client';
import { useRealtimeEvent } from '../realtime';
import type { BatchProgressEvent } from './batch-types';

/**
 * `batch_progress` for this account's batches, and a call after each reconnect (events sent while the socket was
 * away are lost, so what they would have said must be read again).
 */
export function useBatchEvents(
  socket: Socket | null,
  onProgress: (event: BatchProgressEvent) => void,
  onReconnect: () => void,
): void {
  useRealtimeEvent(socket, 'batch_progress', onProgress);
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
