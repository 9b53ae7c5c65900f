import { z } from 'zod';
import type { HistoryRow } from './history-store';

const iso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : null);

/** An entry's compact summary (spec 2.7 names, camelCase), the same shape as the activity_recorded socket event. */
export function historyEntrySummary(r: HistoryRow) {
  return {
    id: r.id,
    requestId: r.request_id,
    activityType: r.activity_type,
    statusCode: r.status_code,
    isError: r.is_error,
    blockchain: r.blockchain,
    transactionHash: r.transaction_hash,
    address: r.address,
    entityId: r.entity_id,
    entityName: r.entity_name,
    riskLevel: r.risk_level,
    riskScore: r.risk_score,
    responseSummary: r.response_summary,
    source: r.source,
    createdAt: iso(r.created_at),
  };
}

/** The detail view: the entry summary plus the full payloads and the caller's metadata. */
export function historyEntryDetail(r: HistoryRow) {
  return {
    ...historyEntrySummary(r),
    responseId: r.response_id,
    errorMessage: r.error_message,
    requestPayload: r.request_payload,
    responsePayload: r.response_payload,
    metadata: r.metadata,
    clientAppId: r.client_app_id,
    clientAppName: r.client_app_name,
  };
}

// ---- Response schemas (OpenAPI; held to the real answers by test/integration/openapi-responses.test.ts) ----

const jsonObject = z.record(z.string(), z.unknown());

/** The entry summary (and the `activity_recorded` socket event). */
export const historyEntrySummarySchema = z.object({
  id: z.uuid(),
  requestId: z.uuid(),
  activityType: z.enum(['kyt', 'kya', 'kye']),
  statusCode: z.int().min(100).max(599),
  isError: z.boolean(),
  blockchain: z.string().nullable(),
  transactionHash: z.string().nullable(),
  address: z.string().nullable(),
  entityId: z.string().nullable(),
  entityName: z.string().nullable(),
  riskLevel: z.enum(['low', 'medium', 'high', 'critical']).nullable(),
  riskScore: z.number().min(0).max(100).nullable(),
  responseSummary: jsonObject
    .nullable()
    .meta({ description: 'Compact summary: risk_level, risk_score, risk_reason (screening) or entity, risk (KYE)' }),
  source: z.enum(['screening', 'webhook', 'x402']),
  createdAt: z.iso.datetime(),
});

/** One entry with its payloads. */
export const historyEntryDetailSchema = historyEntrySummarySchema.extend({
  responseId: z.uuid().nullable(),
  errorMessage: z.string().nullable(),
  requestPayload: jsonObject.nullable(),
  responsePayload: jsonObject.nullable(),
  metadata: jsonObject,
  clientAppId: z.string().nullable(),
  clientAppName: z.string().nullable(),
});
