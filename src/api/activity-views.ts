import type { ActivityRow } from '../db/activity-history';

const iso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : null);

/** The compact list item (spec 2.7 names, camelCase), the same shape as the activity_recorded socket event. */
export function activityListItem(r: ActivityRow) {
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

/** The detail view: the list item plus the full payloads and the caller's metadata. */
export function activityDetail(r: ActivityRow) {
  return {
    ...activityListItem(r),
    responseId: r.response_id,
    errorMessage: r.error_message,
    requestPayload: r.request_payload,
    responsePayload: r.response_payload,
    metadata: r.metadata,
    clientAppId: r.client_app_id,
    clientAppName: r.client_app_name,
  };
}
