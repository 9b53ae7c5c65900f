/**
 * The monitors API as the dashboard reads it, derived from the schemas the routes answer with
 * (src/monitors/monitors-views.ts). Type-only imports: esbuild erases them, so no server code is bundled.
 */
import type { z } from 'zod';
import type {
  createMonitorBody,
  monitorAlertListResponse,
  monitorAlertSchema,
  monitorListResponse,
  monitorSchema,
} from '../../../monitors';

/** GET /api/v1/monitors item and GET /api/v1/monitors/:id `data`. */
export type Monitor = z.output<typeof monitorSchema>;
export type MonitorList = z.output<typeof monitorListResponse>;

/** What a screening of the address came to, as the monitor keeps and compares it. */
export type MonitorSummary = NonNullable<Monitor['last_result']>;
export type AlertLevel = Monitor['alert_level'];

/** GET /api/v1/monitors/:id/alerts item: a change of risk, a pause or a resume. */
export type MonitorAlert = z.output<typeof monitorAlertSchema>;
export type MonitorAlertList = z.output<typeof monitorAlertListResponse>;

/** POST /api/v1/monitors body. */
export type NewMonitor = z.input<typeof createMonitorBody>;

/**
 * `risk_changed` on the socket: a stored alert, built in SQL (monitor_alerts_to_outbox,
 * src/monitors/functions/090_monitor-alerts.sql) from the alert row and its monitor.
 */
export interface RiskChangedEvent {
  monitorId: string;
  chain: string;
  address: string;
  before: MonitorSummary | null;
  after: MonitorSummary | null;
  reason: string;
  request_id: string | null;
  alertId: string;
  /** ISO 8601 UTC. */
  createdAt: string;
}

/** `monitor_paused` and `monitor_resumed` on the socket: the same trigger, without the summaries. */
export type MonitorStatusEvent = Pick<
  RiskChangedEvent,
  'monitorId' | 'chain' | 'address' | 'reason' | 'alertId' | 'createdAt'
>;
