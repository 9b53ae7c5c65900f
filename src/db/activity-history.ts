import type { Pool } from 'pg';

export interface ActivityEntry {
  userId: string;
  /** 'screening:<request_id>' or 'webhook:<request_id>': a retried write lands once. */
  idempotencyKey: string;
  activityType: 'kyt' | 'kya' | 'kye';
  requestId: string;
  responseId: string | null;
  statusCode: number;
  blockchain: string | null;
  transactionHash: string | null;
  address: string | null;
  entityId: string | null;
  entityName: string | null;
  riskLevel: 'low' | 'medium' | 'high' | 'critical' | null;
  riskScore: number | null;
  requestPayload: unknown;
  responsePayload: unknown;
  responseSummary: unknown;
  errorMessage: string | null;
  metadata: Record<string, unknown>;
  clientAppId: string | null;
  clientAppName: string | null;
  source: 'screening' | 'webhook';
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

export function createActivityHistoryStore(pool: Pool) {
  return {
    /** Inserts once per idempotency key and returns the row's id either way. */
    async record(e: ActivityEntry): Promise<{ id: string; inserted: boolean }> {
      const { rows } = await pool.query<{ id: string; inserted: boolean }>(
        `WITH ins AS (
           INSERT INTO activity_history (user_id, idempotency_key, activity_type, request_id, response_id, status_code, is_error,
             blockchain, transaction_hash, address, entity_id, entity_name, risk_level, risk_score, request_payload,
             response_payload, response_summary, error_message, metadata, client_app_id, client_app_name, source)
           VALUES ($1, $2, $3, $4, $5, $6, $6 >= 400, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
           ON CONFLICT (idempotency_key) DO NOTHING RETURNING id)
         SELECT id, true AS inserted FROM ins
         UNION ALL SELECT id, false FROM activity_history WHERE idempotency_key = $2 AND NOT EXISTS (SELECT 1 FROM ins)`,
        [e.userId, e.idempotencyKey, e.activityType, e.requestId, e.responseId, e.statusCode, e.blockchain, e.transactionHash,
          e.address, e.entityId, e.entityName, e.riskLevel, e.riskScore, json(e.requestPayload), json(e.responsePayload),
          json(e.responseSummary), e.errorMessage, JSON.stringify(e.metadata), e.clientAppId, e.clientAppName, e.source],
      );
      const row = rows[0];
      if (!row) throw new Error(`activity ${e.idempotencyKey} neither inserted nor found`);
      return row;
    },

    async listForUser(userId: string, limit: number, offset: number) {
      const { rows } = await pool.query(
        `SELECT * FROM activity_history WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
        [userId, limit, offset],
      );
      return rows;
    },
  };
}

export type ActivityHistoryStore = ReturnType<typeof createActivityHistoryStore>;
