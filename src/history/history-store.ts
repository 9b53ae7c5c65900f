import type { Pool, PoolClient } from 'pg';
import { recordHistoryEntryBatch } from './history-entry-batch';
import type { StoredHistoryEntry } from './history-entry-inserts';
import { createTickBatcher } from './tick-batcher';

/** Which engine produced an entry: the contract's `activityType` (spec 2.7), stored as `activity_type`. */
export type HistoryEntryType = 'kyt' | 'kya' | 'kye';
export type HistoryRiskLevel = 'low' | 'medium' | 'high' | 'critical';

export interface HistoryEntry {
  /** The owner as the writer names it: an internal UUID or an identity-provider (Clerk) id. */
  userRef: string;
  /** 'screening:<request_id>' or 'webhook:<user>:<request_id>': a retried write lands once. */
  idempotencyKey: string;
  activityType: HistoryEntryType;
  requestId: string;
  responseId: string | null;
  statusCode: number;
  blockchain: string | null;
  transactionHash: string | null;
  address: string | null;
  entityId: string | null;
  entityName: string | null;
  riskLevel: HistoryRiskLevel | null;
  riskScore: number | null;
  requestPayload: unknown;
  responsePayload: unknown;
  responseSummary: unknown;
  errorMessage: string | null;
  metadata: Record<string, unknown>;
  clientAppId: string | null;
  clientAppName: string | null;
  source: 'screening' | 'webhook' | 'x402';
}

export interface HistoryFilters {
  activityType?: HistoryEntryType;
  riskLevel?: HistoryRiskLevel;
  blockchain?: string;
  from?: Date;
  to?: Date;
  errorsOnly?: boolean;
  /** Free text matched (case-insensitively, as a substring) against address, transaction hash, entity name and id. */
  search?: string;
}

/** Rows per INSERT statement: the concurrent requests of one turn, bounded so one statement stays small. */
const MAX_ROWS_PER_INSERT = 100;

export type HistoryRow = Record<string, unknown> & { id: string; created_at: Date };

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** WHERE clause and parameters for one user's filtered history ($1 is the user id). */
function whereFor(userId: string, f: HistoryFilters): { sql: string; params: unknown[] } {
  const params: unknown[] = [userId];
  const clauses = ['user_id = $1'];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(`$${params.length}`));
  };
  if (f.activityType) add((p) => `activity_type = ${p}`, f.activityType);
  if (f.riskLevel) add((p) => `risk_level = ${p}`, f.riskLevel);
  if (f.blockchain) add((p) => `blockchain = ${p}`, f.blockchain);
  if (f.from) add((p) => `created_at >= ${p}`, f.from);
  if (f.to) add((p) => `created_at < ${p}`, f.to);
  if (f.errorsOnly) clauses.push('is_error');
  if (f.search)
    add(
      (p) => `(address ILIKE ${p} OR transaction_hash ILIKE ${p} OR entity_name ILIKE ${p} OR entity_id ILIKE ${p})`,
      likePattern(f.search),
    );
  return { sql: clauses.join(' AND '), params };
}

/** The account's history: written by screening jobs, the history webhook and (later) pay-per-use reports. */
export function createHistoryStore(pool: Pool) {
  const batcher = createTickBatcher<HistoryEntry, StoredHistoryEntry>({
    maxItems: MAX_ROWS_PER_INSERT,
    run: (entries) => recordHistoryEntryBatch(pool, entries),
  });
  return {
    /**
     * Inserts once per idempotency key and returns the row's id either way. The owner is resolved from
     * userRef (internal id or Clerk id); an unknown owner leaves user_id NULL until the user appears.
     * Inside a caller's transaction (`db`) the row is written there; otherwise it joins the entries of
     * this event-loop turn in one multi-row INSERT (history-entry-batch.ts), with the same answer.
     */
    async record(e: HistoryEntry, db?: Pool | PoolClient): Promise<StoredHistoryEntry> {
      if (db && db !== pool) {
        const [answer] = await recordHistoryEntryBatch(db, [e]);
        if (answer?.status !== 'fulfilled') throw answer?.reason;
        return answer.value;
      }
      return batcher.add(e);
    },

    /** One page of a user's history, newest first, with the total for the filters. */
    async listForUser(
      userId: string,
      filters: HistoryFilters,
      limit: number,
      offset: number,
    ): Promise<{ rows: HistoryRow[]; total: number }> {
      const where = whereFor(userId, filters);
      const [page, count] = await Promise.all([
        pool.query<HistoryRow>(
          `SELECT id, request_id, response_id, activity_type, status_code, is_error, blockchain, ` +
            `transaction_hash, address, entity_id,
             entity_name, risk_level, risk_score, response_summary, error_message, client_app_id, ` +
            `client_app_name, source, created_at
           FROM activity_history WHERE ${where.sql} ORDER BY created_at DESC, id DESC ` +
            `LIMIT $${where.params.length + 1} OFFSET $${where.params.length + 2}`,
          [...where.params, limit, offset],
        ),
        pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM activity_history WHERE ${where.sql}`, where.params),
      ]);
      return { rows: page.rows, total: count.rows[0]?.n ?? 0 };
    },

    /** One row with its full payloads, only for its owner. */
    async findForUser(id: string, userId: string): Promise<HistoryRow | null> {
      const { rows } = await pool.query<HistoryRow>('SELECT * FROM activity_history WHERE id = $1 AND user_id = $2', [
        id,
        userId,
      ]);
      return rows[0] ?? null;
    },
  };
}

export type HistoryStore = ReturnType<typeof createHistoryStore>;
