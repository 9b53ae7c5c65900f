import type { Pool, PoolClient } from 'pg';
import { isUuid } from '../platform/http/common-patterns';
import type { HistoryEntry } from './history-store';

export type Queryable = Pick<Pool | PoolClient, 'query'>;

/** A stored entry: its row's id, and whether this write created it (false: the key was there already). */
export interface StoredHistoryEntry {
  id: string;
  inserted: boolean;
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/**
 * Every entry as one row of parallel arrays (unnest), so one prepared statement serves any batch size.
 * The owner is resolved in the statement: by Clerk id, or by internal id when the reference is a UUID
 * (two indexed lookups); an unknown owner leaves user_id NULL until the user appears.
 * Rows are inserted in key order, so two batches sharing keys wait for each other instead of deadlocking.
 * The SELECT after the INSERT sees the statement's snapshot: it finds keys stored before, not the batch's own.
 */
const INSERT_HISTORY_ENTRIES = `
WITH ins AS (
  INSERT INTO activity_history (user_id, user_ref, idempotency_key, activity_type, request_id, response_id,
    status_code, is_error, blockchain, transaction_hash, address, entity_id, entity_name, risk_level, risk_score,
    request_payload, response_payload, response_summary, error_message, metadata, client_app_id, client_app_name,
    source)
  SELECT
    (SELECT id FROM users WHERE clerk_user_id = r.user_ref
     UNION ALL SELECT id FROM users WHERE id = r.user_uuid LIMIT 1),
    r.user_ref, r.idempotency_key, r.activity_type, r.request_id, r.response_id, r.status_code, r.status_code >= 400,
    r.blockchain, r.transaction_hash, r.address, r.entity_id, r.entity_name, r.risk_level, r.risk_score,
    r.request_payload::jsonb, r.response_payload::jsonb, r.response_summary::jsonb, r.error_message,
    r.metadata::jsonb, r.client_app_id, r.client_app_name, r.source
  FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::uuid[], $7::int[], $8::text[],
    $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::numeric[], $15::text[], $16::text[],
    $17::text[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[])
    AS r(user_ref, user_uuid, idempotency_key, activity_type, request_id, response_id, status_code, blockchain,
      transaction_hash, address, entity_id, entity_name, risk_level, risk_score, request_payload, response_payload,
      response_summary, error_message, metadata, client_app_id, client_app_name, source)
  ORDER BY r.idempotency_key
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id, idempotency_key)
SELECT id, idempotency_key, true AS inserted FROM ins
UNION ALL
SELECT id, idempotency_key, false FROM activity_history
WHERE idempotency_key = ANY($3::text[]) AND idempotency_key NOT IN (SELECT idempotency_key FROM ins)`;

const column = <K extends keyof HistoryEntry>(entries: HistoryEntry[], key: K) => entries.map((e) => e[key]);

function parameters(entries: HistoryEntry[]): unknown[] {
  return [
    column(entries, 'userRef'),
    entries.map((e) => (isUuid(e.userRef) ? e.userRef : null)),
    column(entries, 'idempotencyKey'),
    column(entries, 'activityType'),
    column(entries, 'requestId'),
    column(entries, 'responseId'),
    column(entries, 'statusCode'),
    column(entries, 'blockchain'),
    column(entries, 'transactionHash'),
    column(entries, 'address'),
    column(entries, 'entityId'),
    column(entries, 'entityName'),
    column(entries, 'riskLevel'),
    column(entries, 'riskScore'),
    entries.map((e) => json(e.requestPayload)),
    entries.map((e) => json(e.responsePayload)),
    entries.map((e) => json(e.responseSummary)),
    column(entries, 'errorMessage'),
    entries.map((e) => JSON.stringify(e.metadata)),
    column(entries, 'clientAppId'),
    column(entries, 'clientAppName'),
    column(entries, 'source'),
  ];
}

/**
 * Inserts entries with distinct idempotency keys in ONE statement, each at most once per key (ON CONFLICT
 * DO NOTHING), and returns every key's row. A key missing from the answer has a twin that committed after
 * the statement's snapshot: ON CONFLICT saw it, the SELECT could not. A second statement has a new snapshot
 * (READ COMMITTED) and finds it. Throws when a row cannot be stored (then none of them is).
 */
export async function insertHistoryEntries(
  db: Queryable,
  entries: HistoryEntry[],
): Promise<Map<string, StoredHistoryEntry>> {
  const { rows } = await db.query<{ id: string; idempotency_key: string; inserted: boolean }>({
    name: 'activity-history-insert',
    text: INSERT_HISTORY_ENTRIES,
    values: parameters(entries),
  });
  const stored = new Map(rows.map((r) => [r.idempotency_key, { id: r.id, inserted: r.inserted }]));
  const missing = entries.map((e) => e.idempotencyKey).filter((key) => !stored.has(key));
  if (missing.length > 0) {
    const twins = await db.query<{ id: string; idempotency_key: string }>(
      'SELECT id, idempotency_key FROM activity_history WHERE idempotency_key = ANY($1::text[])',
      [missing],
    );
    for (const t of twins.rows) stored.set(t.idempotency_key, { id: t.id, inserted: false });
  }
  return stored;
}
