import { useCallback } from 'preact/hooks';
import type { Socket } from 'socket.io-client';
import { useRealtimeEvent } from '../realtime';
import type { MonitorAlert, MonitorStatusEvent, RiskChangedEvent } from './monitor-types';

/** A monitor alert as it arrives on the socket, in the shape GET /api/v1/monitors/:id/alerts lists it. */
export type AlertArrival = { alert: MonitorAlert; chain: string; address: string };

function fromRiskChanged(e: RiskChangedEvent): AlertArrival {
  return {
    chain: e.chain,
    address: e.address,
    alert: {
      id: e.alertId,
      monitor_id: e.monitorId,
      kind: 'risk_changed',
      request_id: e.request_id,
      before: e.before,
      after: e.after,
      reason: e.reason,
      created_at: e.createdAt,
    },
  };
}

const fromStatus =
  (kind: 'paused' | 'resumed') =>
  (e: MonitorStatusEvent): AlertArrival => ({
    chain: e.chain,
    address: e.address,
    // The event does not carry the request id of a pause; the listed alert does (a reload shows it).
    alert: {
      id: e.alertId,
      monitor_id: e.monitorId,
      kind,
      request_id: null,
      before: null,
      after: null,
      reason: e.reason,
      created_at: e.createdAt,
    },
  });

/** Calls `onAlert` for every monitor alert of this account (`risk_changed`, `monitor_paused`, `monitor_resumed`). */
export function useMonitorAlertEvents(socket: Socket | null, onAlert: (arrival: AlertArrival) => void): void {
  useRealtimeEvent(
    socket,
    'risk_changed',
    useCallback((e: RiskChangedEvent) => onAlert(fromRiskChanged(e)), [onAlert]),
  );
  useRealtimeEvent(
    socket,
    'monitor_paused',
    useCallback((e: MonitorStatusEvent) => onAlert(fromStatus('paused')(e)), [onAlert]),
  );
  useRealtimeEvent(
    socket,
    'monitor_resumed',
    useCallback((e: MonitorStatusEvent) => onAlert(fromStatus('resumed')(e)), [onAlert]),
  );
}
