import { z } from 'zod';
import type { Monitor, MonitorAlert } from './monitors-store';

const level = z.enum(['LOW', 'MEDIUM', 'HIGH']);
const summary = z.object({
  risk_level: level,
  risk_score: z.number(),
  sanctioned: z.boolean(),
  hits: z.array(z.string()).describe('Each finding as `rule category address`'),
});

export const monitorSchema = z.object({
  id: z.uuid(),
  chain: z.string(),
  address: z.string(),
  reference_id: z.string().nullable(),
  alert_level: level,
  every_hours: z.int(),
  policy_id: z
    .string()
    .nullable()
    .describe(
      "The policy each re-screen is scored under, at its version of that moment ('standard': the shipped model); " +
        "null: the account's default policy at each re-screen",
    ),
  status: z.enum(['active', 'paused']),
  paused_reason: z.string().nullable(),
  last_request_id: z.uuid().nullable().describe('The last re-screen: a screening job of this account'),
  last_result: summary.nullable(),
  last_screened_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});

export const monitorAlertSchema = z.object({
  id: z.uuid(),
  monitor_id: z.uuid(),
  kind: z.enum(['risk_changed', 'paused', 'resumed']),
  request_id: z.uuid().nullable(),
  before: summary.nullable(),
  after: summary.nullable(),
  reason: z.string(),
  created_at: z.iso.datetime(),
});

export const monitorResponse = z.object({ success: z.literal(true), data: monitorSchema });
const page = z.object({ total: z.int().min(0), limit: z.int().min(1), offset: z.int().min(0) });
export const monitorListResponse = z.object({
  success: z.literal(true),
  data: z.array(monitorSchema),
  pagination: page,
});
export const monitorAlertListResponse = z.object({
  success: z.literal(true),
  data: z.array(monitorAlertSchema),
  pagination: page,
});
export const deletedMonitorResponse = z.object({
  success: z.literal(true),
  data: z.object({ id: z.uuid(), deleted: z.literal(true) }),
});
export const rescreenResponse = z.object({
  success: z.literal(true),
  data: z.object({ monitor_id: z.uuid(), status: z.literal('rescreen_requested') }),
});

export function monitorView(m: Monitor): z.input<typeof monitorSchema> {
  return {
    id: m.id,
    chain: m.chain,
    address: m.address,
    reference_id: m.referenceId,
    alert_level: m.alertLevel,
    every_hours: m.everyHours,
    policy_id: m.policyId,
    status: m.status === 'paused' ? 'paused' : 'active',
    paused_reason: m.pausedReason,
    last_request_id: m.lastRequestId,
    last_result: m.lastResult,
    last_screened_at: m.lastScreenedAt?.toISOString() ?? null,
    created_at: m.createdAt.toISOString(),
  };
}

export function alertView(a: MonitorAlert): z.input<typeof monitorAlertSchema> {
  return {
    id: a.id,
    monitor_id: a.monitorId,
    kind: a.kind,
    request_id: a.requestId,
    before: a.before,
    after: a.after,
    reason: a.reason,
    created_at: a.createdAt.toISOString(),
  };
}
