import type { Pool, PoolClient } from 'pg';
import type { PolicySnapshot } from './engine/scoring-policy';
import type { ApiType, JobError } from './workflow-types';

export interface NewJob {
  requestId: string;
  userId: string;
  apiType: ApiType;
  chain: string;
  target: string;
  referenceId: string | null;
  crawlTimeoutMs: number;
  maxDepth: number;
  creditsHeld: number;
  /** The submit's X-Request-Id (kept for a workflow the sweeper starts later). */
  httpRequestId?: string | null;
  /** The policy version the job is scored under (null: the standard model). */
  policy?: PolicySnapshot | null;
  /** The batch the job is an item of (src/batches): its batch workflow starts it, the queued-job sweeper does not. */
  batchId?: string | null;
}

/** A job left `queued`: the fields its workflow input is rebuilt from, and how long it has waited. */
export type StaleQueuedJob = NewJob & { ageMs: number };

export interface JobRecord {
  requestId: string;
  userId: string;
  apiType: ApiType;
  chain: string;
  target: string;
  referenceId: string | null;
  status: 'queued' | 'completed' | 'failed';
  response: Record<string, unknown> | null;
  fullResponse: Record<string, unknown> | null;
  error: JobError | null;
  creditsHeld: number;
  creditsCharged: number | null;
  createdAt: Date;
  completedAt: Date | null;
  policy: PolicySnapshot | null;
}

/**
 * A job as its poll answers it: the one stored answer the poll sends (`response`, or `full_response` for
 * /fullresponse) as the JSON text Postgres holds, never parsed here, and not the other one.
 */
export interface PolledJobRecord {
  requestId: string;
  status: JobRecord['status'];
  referenceId: string | null;
  createdAt: Date;
  completedAt: Date | null;
  creditsCharged: number | null;
  error: JobError | null;
  /** The stored answer's JSON text; null until the job completed. */
  answerText: string | null;
}

/** What an applied mirror write finished: the job's kind, and when it was submitted and completed. */
export interface AppliedJobUpdate {
  apiType: ApiType;
  chain: string;
  createdAt: Date;
  completedAt: Date;
}

/** One write of the workflow to the mirror; `seq` is monotonic across runs (see src/screening/workflows.ts). */
export interface JobUpdate {
  requestId: string;
  /**
   * Decimal digits of a bigint beyond 2^53 (a JS number would round it, making two writes equal). Writes
   * scheduled by workflow code before this was a string carry a number; Postgres takes either.
   */
  seq: string;
  runId: string;
  status: 'completed' | 'failed';
  response: unknown;
  fullResponse: unknown;
  error: JobError | null;
  creditsCharged: number | null;
}

const COLUMNS = `request_id, user_id, api_type, chain, target, reference_id, status, response, full_response, error,
  credits_held, credits_charged, created_at, completed_at, policy`;

/** What a job was asked to do: the same columns in a full record and in a sweeper's view of a queued job. */
function requestFields(r: Record<string, unknown>) {
  return {
    requestId: String(r.request_id),
    userId: String(r.user_id),
    apiType: r.api_type as ApiType,
    chain: String(r.chain),
    target: String(r.target),
    referenceId: (r.reference_id as string | null) ?? null,
  };
}

function toJob(r: Record<string, unknown>): JobRecord {
  return {
    ...requestFields(r),
    status: r.status as JobRecord['status'],
    response: (r.response as Record<string, unknown> | null) ?? null,
    fullResponse: (r.full_response as Record<string, unknown> | null) ?? null,
    error: (r.error as JobError | null) ?? null,
    creditsHeld: Number(r.credits_held),
    creditsCharged: r.credits_charged == null ? null : Number(r.credits_charged),
    createdAt: r.created_at as Date,
    completedAt: (r.completed_at as Date | null) ?? null,
    policy: (r.policy as PolicySnapshot | null) ?? null,
  };
}

export function createJobStore(pool: Pool) {
  return {
    async insertQueued(job: NewJob, db: Pool | PoolClient = pool): Promise<JobRecord> {
      const { rows } = await db.query(
        `INSERT INTO screening_jobs (request_id, user_id, api_type, chain, target, reference_id, crawl_timeout_ms, ` +
          `max_depth, credits_held, http_request_id, policy, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'queued') RETURNING ${COLUMNS}`,
        [
          job.requestId,
          job.userId,
          job.apiType,
          job.chain,
          job.target,
          job.referenceId,
          job.crawlTimeoutMs,
          job.maxDepth,
          job.creditsHeld,
          job.httpRequestId ?? null,
          job.policy ? JSON.stringify(job.policy) : null,
        ],
      );
      return toJob(rows[0]);
    },

    /**
     * Holds a fresh job's credits and records it as queued in ONE statement (one round trip, atomic on its own: the
     * hold and the row commit together or not at all). `reserve_credits` (billing's SQL function, under the account
     * row lock) holds between `hold.min` and `hold.max`; the job's max_depth is `hold.depthByAmount[held]`, the
     * deepest crawl the held amount pays for (src/screening/pricing.ts decides it, not SQL). Nothing is held or
     * recorded when not even `hold.min` is available: `job` is then null.
     */
    async holdAndInsertQueued(
      job: Omit<NewJob, 'maxDepth' | 'creditsHeld' | 'batchId'>,
      hold: { min: number; max: number; depthByAmount: readonly number[] },
      db: Pool | PoolClient = pool,
    ): Promise<{ held: number; job: JobRecord | null }> {
      const { rows } = await db.query(
        `WITH hold AS (SELECT reserve_credits($2, $1::text, $9, $10) AS held),
         job AS (
           INSERT INTO screening_jobs (request_id, user_id, api_type, chain, target, reference_id, ` +
          `crawl_timeout_ms, max_depth, credits_held, http_request_id, policy, status)
           SELECT $1::uuid, $2, $3, $4, $5, $6, $7, ($11::int[])[hold.held + 1], hold.held, $8, $12::jsonb, 'queued'
           FROM hold WHERE hold.held > 0
           RETURNING ${COLUMNS})
         SELECT hold.held, job.* FROM hold LEFT JOIN job ON true`,
        [
          job.requestId,
          job.userId,
          job.apiType,
          job.chain,
          job.target,
          job.referenceId,
          job.crawlTimeoutMs,
          job.httpRequestId ?? null,
          hold.min,
          hold.max,
          // SQL arrays count from 1: the depth for an amount n sits at n + 1.
          hold.depthByAmount,
          job.policy ? JSON.stringify(job.policy) : null,
        ],
      );
      const row = rows[0];
      const held = Number(row?.held ?? 0);
      return { held, job: held > 0 && row ? toJob(row) : null };
    },

    /**
     * Records many queued jobs in one statement (a batch's accepted items, inside the batch's transaction): the rows
     * insertQueued writes, with their batch_id.
     */
    async insertQueuedMany(jobs: readonly NewJob[], db: Pool | PoolClient = pool): Promise<void> {
      if (jobs.length === 0) return;
      const rows = jobs.map((job) => ({
        request_id: job.requestId,
        user_id: job.userId,
        api_type: job.apiType,
        chain: job.chain,
        target: job.target,
        reference_id: job.referenceId,
        crawl_timeout_ms: job.crawlTimeoutMs,
        max_depth: job.maxDepth,
        credits_held: job.creditsHeld,
        http_request_id: job.httpRequestId ?? null,
        policy: job.policy ?? null,
        batch_id: job.batchId ?? null,
      }));
      await db.query(
        `INSERT INTO screening_jobs (request_id, user_id, api_type, chain, target, reference_id, crawl_timeout_ms, ` +
          `max_depth, credits_held, http_request_id, policy, batch_id, status)
         SELECT r.request_id, r.user_id, r.api_type, r.chain, r.target, r.reference_id, r.crawl_timeout_ms,
                r.max_depth, r.credits_held, r.http_request_id, r.policy, r.batch_id, 'queued'
         FROM jsonb_to_recordset($1::jsonb) AS r(request_id uuid, user_id uuid, api_type text, chain text, ` +
          `target text, reference_id text, crawl_timeout_ms integer, max_depth integer, credits_held bigint, ` +
          `http_request_id text, policy jsonb, batch_id uuid)`,
        [JSON.stringify(rows)],
      );
    },

    /** A job is only ever visible to its owner: another user's id reads as unknown. */
    async findForUser(requestId: string, userId: string, db: Pool | PoolClient = pool): Promise<JobRecord | null> {
      const { rows } = await db.query(`SELECT ${COLUMNS} FROM screening_jobs WHERE request_id = $1 AND user_id = $2`, [
        requestId,
        userId,
      ]);
      return rows[0] ? toJob(rows[0]) : null;
    },

    /** The poll's one query (primary key, owner checked in the same statement): see PolledJobRecord. */
    async findPollForUser(requestId: string, userId: string, full: boolean): Promise<PolledJobRecord | null> {
      const { rows } = await pool.query({
        name: full ? 'poll-job-full' : 'poll-job',
        text: `SELECT request_id, status, reference_id, created_at, completed_at, credits_charged, error,
                 ${full ? 'full_response' : 'response'}::text AS answer_text
               FROM screening_jobs WHERE request_id = $1 AND user_id = $2`,
        values: [requestId, userId],
      });
      const r = rows[0];
      if (!r) return null;
      return {
        requestId: String(r.request_id),
        status: r.status,
        referenceId: r.reference_id ?? null,
        createdAt: r.created_at,
        completedAt: r.completed_at ?? null,
        creditsCharged: r.credits_charged == null ? null : Number(r.credits_charged),
        error: r.error ?? null,
        answerText: r.answer_text ?? null,
      };
    },

    /**
     * Order-safe upsert: a retried or late write with a lower seq changes nothing. Returns what the
     * applied write finished (the job's kind and its submission and completion times), or null when
     * it did not apply, so a retried write is never counted twice.
     */
    async applyUpdate(u: JobUpdate, db: Pool | PoolClient = pool): Promise<AppliedJobUpdate | null> {
      const { rows } = await db.query(
        `UPDATE screening_jobs SET status = $4, seq = $2, run_id = $3, response = $5, full_response = $6, error = $7,
           credits_charged = $8, response_id = ($5::jsonb ->> 'response_id')::uuid, ` +
          `updated_at = now(), completed_at = now()
         WHERE request_id = $1 AND seq < $2
         RETURNING api_type, chain, created_at, completed_at`,
        [
          u.requestId,
          u.seq,
          u.runId,
          u.status,
          JSON.stringify(u.response ?? null),
          JSON.stringify(u.fullResponse ?? null),
          u.error ? JSON.stringify(u.error) : null,
          u.creditsCharged,
        ],
      );
      const r = rows[0];
      return r
        ? {
            apiType: r.api_type as ApiType,
            chain: String(r.chain),
            createdAt: r.created_at as Date,
            completedAt: r.completed_at as Date,
          }
        : null;
    },

    /**
     * Jobs still queued `olderThanMs` after submission, oldest first, with what their workflow input needs.
     * The partial index screening_jobs_queued_idx keeps this cheap however large the table grows. A batch's items
     * are not among them: an item waiting for its batch's concurrency slot is not stale, and its batch workflow
     * (not this sweep) starts it.
     */
    async findStaleQueued(olderThanMs: number, limit: number): Promise<StaleQueuedJob[]> {
      const { rows } = await pool.query(
        `SELECT request_id, user_id, api_type, chain, target, reference_id, crawl_timeout_ms, max_depth, ` +
          `credits_held, http_request_id, policy,
                (extract(epoch FROM now() - created_at) * 1000)::bigint AS age_ms
         FROM screening_jobs WHERE status = 'queued' AND batch_id IS NULL ` +
          `AND created_at < now() - make_interval(secs => ` +
          `$1::double precision / 1000)
         ORDER BY created_at LIMIT $2`,
        [olderThanMs, limit],
      );
      return rows.map((r) => ({
        ...requestFields(r),
        crawlTimeoutMs: Number(r.crawl_timeout_ms),
        maxDepth: Number(r.max_depth),
        creditsHeld: Number(r.credits_held),
        httpRequestId: (r.http_request_id as string | null) ?? null,
        policy: (r.policy as PolicySnapshot | null) ?? null,
        ageMs: Number(r.age_ms),
      }));
    },

    /** For a job whose workflow could not be started: nothing ran and nothing is charged. */
    async markNotStarted(requestId: string, error: JobError, creditsCharged = 0): Promise<boolean> {
      const { rowCount } = await pool.query(
        `UPDATE screening_jobs SET status = 'failed', error = $2, credits_charged = $3, ` +
          `updated_at = now(), completed_at = now()
         WHERE request_id = $1 AND status = 'queued'`,
        [requestId, JSON.stringify(error), creditsCharged],
      );
      return (rowCount ?? 0) > 0;
    },
  };
}

export type JobStore = ReturnType<typeof createJobStore>;
