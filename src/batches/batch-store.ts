import type { Pool, PoolClient } from 'pg';
import type { PolicySnapshot, ScreeningInput } from '../screening';
import type { BatchItemStart } from './workflow-types';

type Queryable = Pool | PoolClient;

export type BatchItemStatus = 'invalid' | 'refused' | 'queued' | 'completed' | 'failed';
export const BATCH_ITEM_STATUSES: readonly BatchItemStatus[] = ['invalid', 'refused', 'queued', 'completed', 'failed'];

export interface BatchRecord {
  id: string;
  userId: string;
  idempotencyKey: string | null;
  bodySha256: string;
  policy: PolicySnapshot | null;
  crawlTimeoutMs: number;
  status: 'running' | 'completed';
  createdAt: Date;
  completedAt: Date | null;
}

export interface BatchCounts {
  total: number;
  invalid: number;
  refused: number;
  queued: number;
  completed: number;
  failed: number;
}

/** A batch with its items counted by status and the credits its jobs hold and were charged. */
export interface BatchSummary extends BatchRecord {
  counts: BatchCounts;
  credits: { held: number; charged: number };
}

export interface NewBatch {
  id: string;
  userId: string;
  idempotencyKey: string | null;
  bodySha256: string;
  policy: PolicySnapshot | null;
  crawlTimeoutMs: number;
}

/** One item as stored: its job's outcome is copied in by the trigger of functions/100_batches.sql. */
export interface BatchItem {
  index: number;
  requestId: string | null;
  apiType: 'KYA' | 'KYT' | null;
  chain: string | null;
  target: string | null;
  referenceId: string | null;
  status: BatchItemStatus;
  riskLevel: string | null;
  riskScore: number | null;
  standardRiskLevel: string | null;
  standardRiskScore: number | null;
  creditsCharged: number | null;
  error: { code: string; message: string; parameter?: string } | null;
}

export type NewBatchItem = Pick<
  BatchItem,
  'index' | 'requestId' | 'apiType' | 'chain' | 'target' | 'referenceId' | 'status' | 'error'
> & { creditsHeld: number; maxDepth: number | null };

const BATCH_COLUMNS = `b.id, b.user_id, b.idempotency_key, b.body_sha256, b.policy, b.crawl_timeout_ms, b.status,
  b.created_at, b.completed_at`;

function toBatch(r: Record<string, unknown>): BatchRecord {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    idempotencyKey: (r.idempotency_key as string | null) ?? null,
    bodySha256: String(r.body_sha256),
    policy: (r.policy as PolicySnapshot | null) ?? null,
    crawlTimeoutMs: Number(r.crawl_timeout_ms),
    status: r.status as BatchRecord['status'],
    createdAt: r.created_at as Date,
    completedAt: (r.completed_at as Date | null) ?? null,
  };
}

function toSummary(r: Record<string, unknown>): BatchSummary {
  const summary = r.summary as { counts: BatchCounts; credits: { held: number; charged: number } };
  return {
    ...toBatch(r),
    counts: summary.counts,
    credits: { held: Number(summary.credits.held), charged: Number(summary.credits.charged) },
  };
}

const numberOrNull = (v: unknown): number | null => (v == null ? null : Number(v));

function toItem(r: Record<string, unknown>): BatchItem {
  return {
    index: Number(r.idx),
    requestId: (r.request_id as string | null) ?? null,
    apiType: (r.api_type as BatchItem['apiType']) ?? null,
    chain: (r.chain as string | null) ?? null,
    target: (r.target as string | null) ?? null,
    referenceId: (r.reference_id as string | null) ?? null,
    status: r.status as BatchItemStatus,
    riskLevel: (r.risk_level as string | null) ?? null,
    riskScore: numberOrNull(r.risk_score),
    standardRiskLevel: (r.standard_risk_level as string | null) ?? null,
    standardRiskScore: numberOrNull(r.standard_risk_score),
    creditsCharged: numberOrNull(r.credits_charged),
    error: (r.error as BatchItem['error']) ?? null,
  };
}

const ITEM_COLUMNS = `idx, request_id, api_type, chain, target, reference_id, status, risk_level, risk_score,
  standard_risk_level, standard_risk_score, credits_charged, error`;

/** Batches and their items (migration 027); counts come from batch_counts() of functions/100_batches.sql. */
export function createBatchStore(pool: Pool) {
  return {
    /** The batch this account recorded under this Idempotency-Key, if any. */
    async findByIdempotencyKey(userId: string, key: string, db: Queryable = pool): Promise<BatchRecord | null> {
      const { rows } = await db.query(
        `SELECT ${BATCH_COLUMNS} FROM screening_batches b WHERE b.user_id = $1 AND b.idempotency_key = $2`,
        [userId, key],
      );
      return rows[0] ? toBatch(rows[0]) : null;
    },

    /**
     * Records the batch; null when the account already has one under this Idempotency-Key (a concurrent twin that
     * committed first: this insert waited for it on the unique index, then found it).
     */
    async insert(batch: NewBatch, db: Queryable = pool): Promise<BatchRecord | null> {
      const { rows } = await db.query(
        `INSERT INTO screening_batches AS b (id, user_id, idempotency_key, body_sha256, policy, crawl_timeout_ms)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
         RETURNING ${BATCH_COLUMNS}`,
        [
          batch.id,
          batch.userId,
          batch.idempotencyKey,
          batch.bodySha256,
          batch.policy ? JSON.stringify(batch.policy) : null,
          batch.crawlTimeoutMs,
        ],
      );
      return rows[0] ? toBatch(rows[0]) : null;
    },

    /** Every item of a new batch in one statement (inside the batch's transaction). */
    async insertItems(batchId: string, items: readonly NewBatchItem[], db: Queryable = pool): Promise<void> {
      if (items.length === 0) return;
      const rows = items.map((item) => ({
        idx: item.index,
        request_id: item.requestId,
        api_type: item.apiType,
        chain: item.chain,
        target: item.target,
        reference_id: item.referenceId,
        status: item.status,
        credits_held: item.creditsHeld,
        max_depth: item.maxDepth,
        error: item.error,
      }));
      await db.query(
        `INSERT INTO batch_items (batch_id, idx, request_id, api_type, chain, target, reference_id, status,
           credits_held, max_depth, error)
         SELECT $1, r.idx, r.request_id, r.api_type, r.chain, r.target, r.reference_id, r.status, r.credits_held,
           r.max_depth, r.error
         FROM jsonb_to_recordset($2::jsonb) AS r(idx integer, request_id uuid, api_type text, chain text,
           target text, reference_id text, status text, credits_held bigint, max_depth integer, error jsonb)`,
        [batchId, JSON.stringify(rows)],
      );
    },

    /** A batch is only ever visible to its owner: another account's id reads as unknown. */
    async findForUser(batchId: string, userId: string): Promise<BatchSummary | null> {
      const { rows } = await pool.query(
        `SELECT ${BATCH_COLUMNS}, batch_counts(b.id) AS summary FROM screening_batches b
         WHERE b.id = $1 AND b.user_id = $2`,
        [batchId, userId],
      );
      return rows[0] ? toSummary(rows[0]) : null;
    },

    async find(batchId: string): Promise<BatchRecord | null> {
      const { rows } = await pool.query(`SELECT ${BATCH_COLUMNS} FROM screening_batches b WHERE b.id = $1`, [batchId]);
      return rows[0] ? toBatch(rows[0]) : null;
    },

    /** The account's batches, newest first, each with its counts. */
    async listForUser(
      userId: string,
      limit: number,
      offset: number,
    ): Promise<{ batches: BatchSummary[]; total: number }> {
      const [page, count] = await Promise.all([
        pool.query(
          `SELECT ${BATCH_COLUMNS}, batch_counts(b.id) AS summary FROM screening_batches b WHERE b.user_id = $1
           ORDER BY b.created_at DESC, b.id LIMIT $2 OFFSET $3`,
          [userId, limit, offset],
        ),
        pool.query<{ n: number }>('SELECT count(*)::int AS n FROM screening_batches WHERE user_id = $1', [userId]),
      ]);
      return { batches: page.rows.map(toSummary), total: count.rows[0]?.n ?? 0 };
    },

    /** A page of items in request order, optionally of one status. */
    async items(
      batchId: string,
      page: { limit: number; offset: number; status?: BatchItemStatus },
    ): Promise<{ items: BatchItem[]; total: number }> {
      const status = page.status ?? null;
      const [rows, count] = await Promise.all([
        pool.query(
          `SELECT ${ITEM_COLUMNS} FROM batch_items WHERE batch_id = $1 AND ($2::text IS NULL OR status = $2)
           ORDER BY idx LIMIT $3 OFFSET $4`,
          [batchId, status, page.limit, page.offset],
        ),
        pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM batch_items WHERE batch_id = $1 AND ($2::text IS NULL OR status = $2)',
          [batchId, status],
        ),
      ]);
      return { items: rows.rows.map(toItem), total: count.rows[0]?.n ?? 0 };
    },

    /**
     * Accepted items whose job is still queued, after `afterIndex` in request order, with the input their job
     * runs with: what the batch workflow starts next (or, after a restart, recovers).
     */
    async pendingItems(
      batchId: string,
      afterIndex: number,
      limit: number,
      heartbeatTimeoutMs: number,
    ): Promise<BatchItemStart[]> {
      const { rows } = await pool.query(
        `SELECT i.idx, i.request_id, i.api_type, i.chain, i.target, i.reference_id, i.credits_held, i.max_depth,
                b.user_id, b.crawl_timeout_ms, b.policy
         FROM batch_items i JOIN screening_batches b ON b.id = i.batch_id
         WHERE i.batch_id = $1 AND i.idx > $2 AND i.status = 'queued'
         ORDER BY i.idx LIMIT $3`,
        [batchId, afterIndex, limit],
      );
      return rows.map((r) => {
        const input: ScreeningInput = {
          requestId: String(r.request_id),
          userId: String(r.user_id),
          apiType: r.api_type,
          chain: String(r.chain),
          target: String(r.target),
          crawlTimeoutMs: Number(r.crawl_timeout_ms),
          maxDepth: Number(r.max_depth),
          creditsHeld: Number(r.credits_held),
          heartbeatTimeoutMs,
          referenceId: (r.reference_id as string | null) ?? null,
          policy: (r.policy as PolicySnapshot | null) ?? null,
        };
        return { index: Number(r.idx), input };
      });
    },

    /** Announces progress: the trigger sends batch_progress with the counts as they are now. */
    async markProgress(batchId: string): Promise<void> {
      await pool.query(
        `UPDATE screening_batches SET progress_seq = progress_seq + 1 WHERE id = $1 AND status = 'running'`,
        [batchId],
      );
    },

    /**
     * Marks the batch completed once no accepted item is still queued (the trigger sends the final
     * batch_progress); answers how many still are. Completing twice changes nothing.
     */
    async complete(batchId: string): Promise<{ completed: boolean; queued: number }> {
      const { rows } = await pool.query<{ queued: number; status: string }>(
        `WITH pending AS (SELECT count(*)::int AS n FROM batch_items WHERE batch_id = $1 AND status = 'queued'),
         done AS (
           UPDATE screening_batches SET status = 'completed', completed_at = now()
           WHERE id = $1 AND status = 'running' AND (SELECT n FROM pending) = 0
           RETURNING status)
         SELECT (SELECT n FROM pending) AS queued,
                coalesce((SELECT status FROM done), (SELECT status FROM screening_batches WHERE id = $1)) AS status`,
        [batchId],
      );
      const row = rows[0];
      return { completed: row?.status === 'completed', queued: row?.queued ?? 0 };
    },

    /** Running batches created before `olderThanMs` ago, oldest first: those whose workflow may never have started. */
    async runningOlderThan(olderThanMs: number, limit: number): Promise<{ id: string; userId: string }[]> {
      const { rows } = await pool.query(
        `SELECT id, user_id FROM screening_batches
         WHERE status = 'running' AND created_at < now() - make_interval(secs => $1::double precision / 1000)
         ORDER BY created_at LIMIT $2`,
        [olderThanMs, limit],
      );
      return rows.map((r) => ({ id: String(r.id), userId: String(r.user_id) }));
    },
  };
}

export type BatchStore = ReturnType<typeof createBatchStore>;
