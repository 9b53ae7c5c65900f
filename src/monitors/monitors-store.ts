import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '../platform/db/transaction';
import type { MonitorSummary } from './monitor-summary';
import { requestRescreens } from './rescreen-due';

export type AlertLevel = 'LOW' | 'MEDIUM' | 'HIGH';

export interface Monitor {
  id: string;
  userId: string;
  chain: string;
  address: string;
  referenceId: string | null;
  alertLevel: AlertLevel;
  everyHours: number;
  /** The policy its re-screens are scored under (its then-current version); null: the account's default. */
  policyId: string | null;
  status: 'active' | 'paused' | 'deleted';
  pausedReason: string | null;
  lastRequestId: string | null;
  lastResult: MonitorSummary | null;
  lastScreenedAt: Date | null;
  createdAt: Date;
  /** The request id of its first job, whose credits the create held (null: created before issue 28). */
  firstRequestId: string | null;
}

export interface MonitorAlert {
  id: string;
  monitorId: string;
  kind: 'risk_changed' | 'paused' | 'resumed';
  requestId: string | null;
  before: MonitorSummary | null;
  after: MonitorSummary | null;
  reason: string;
  createdAt: Date;
}

const COLUMNS = `id, user_id, chain, address, reference_id, alert_level, every_hours, policy_id, status, paused_reason,
  last_request_id, last_result, last_screened_at, created_at, first_request_id`;

// biome-ignore lint/suspicious/noExplicitAny: a pg row
const toMonitor = (r: any): Monitor => ({
  id: r.id,
  userId: r.user_id,
  chain: r.chain,
  address: r.address,
  referenceId: r.reference_id,
  alertLevel: r.alert_level,
  everyHours: r.every_hours,
  policyId: r.policy_id,
  status: r.status,
  pausedReason: r.paused_reason,
  lastRequestId: r.last_request_id,
  lastResult: r.last_result,
  lastScreenedAt: r.last_screened_at,
  createdAt: r.created_at,
  firstRequestId: r.first_request_id,
});

// biome-ignore lint/suspicious/noExplicitAny: a pg row
const toAlert = (r: any): MonitorAlert => ({
  id: r.id,
  monitorId: r.monitor_id,
  kind: r.kind,
  requestId: r.request_id,
  before: r.before,
  after: r.after,
  reason: r.reason,
  createdAt: r.created_at,
});

/** Monitors, their watched addresses and their alerts (migration 020). */
export function createMonitorStore(pool: Pool) {
  return {
    /**
     * The live monitor of this account and target, if there is one (one per target: a repeated create answers it).
     * Read inside the create's transaction, after its per-account lock.
     */
    async findLiveTwin(client: PoolClient, m: { userId: string; chain: string; address: string }) {
      const { rows } = await client.query(
        `SELECT ${COLUMNS} FROM monitors WHERE user_id = $1 AND chain = $2 AND address = $3 AND status <> 'deleted'`,
        [m.userId, m.chain, m.address],
      );
      return rows[0] ? toMonitor(rows[0]) : null;
    },

    /** Monitors the account keeps (active or paused): what MAX_ACTIVE_MONITORS_PER_ACCOUNT bounds. */
    async countLive(client: PoolClient, userId: string): Promise<number> {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM monitors WHERE user_id = $1 AND status <> 'deleted'`,
        [userId],
      );
      return rows[0]?.n ?? 0;
    },

    /** Inserts a new monitor and its first watched address (its target), in the create's transaction. */
    async insert(
      client: PoolClient,
      m: Pick<
        Monitor,
        'id' | 'userId' | 'chain' | 'address' | 'referenceId' | 'alertLevel' | 'everyHours' | 'policyId'
      > & { firstRequestId: string },
    ): Promise<Monitor> {
      const { rows } = await client.query(
        `INSERT INTO monitors (id, user_id, chain, address, reference_id, alert_level, every_hours, policy_id,
           first_request_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
        [m.id, m.userId, m.chain, m.address, m.referenceId, m.alertLevel, m.everyHours, m.policyId, m.firstRequestId],
      );
      await client.query('INSERT INTO monitor_watch (address, monitor_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        m.address,
        m.id,
      ]);
      return toMonitor(rows[0]);
    },

    async find(id: string): Promise<Monitor | null> {
      const { rows } = await pool.query(`SELECT ${COLUMNS} FROM monitors WHERE id = $1`, [id]);
      return rows[0] ? toMonitor(rows[0]) : null;
    },

    /** A monitor is only ever visible to its owner, and a deleted one to nobody. */
    async findForUser(id: string, userId: string): Promise<Monitor | null> {
      const { rows } = await pool.query(
        `SELECT ${COLUMNS} FROM monitors WHERE id = $1 AND user_id = $2 AND status <> 'deleted'`,
        [id, userId],
      );
      return rows[0] ? toMonitor(rows[0]) : null;
    },

    async listForUser(userId: string, limit: number, offset: number): Promise<{ monitors: Monitor[]; total: number }> {
      const [page, count] = await Promise.all([
        pool.query(
          `SELECT ${COLUMNS} FROM monitors WHERE user_id = $1 AND status <> 'deleted'
           ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
          [userId, limit, offset],
        ),
        pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM monitors WHERE user_id = $1 AND status <> 'deleted'`,
          [userId],
        ),
      ]);
      return { monitors: page.rows.map(toMonitor), total: count.rows[0]?.n ?? 0 };
    },

    /**
     * Marks it deleted (its alerts stay for the record); false when it was not the owner's or already gone. In the
     * same transaction, the hold of its first job is released when that job was never recorded
     * (idempotency key: the hold key, the first request id; releasing twice releases nothing). The row lock this
     * takes is the one a re-screen's prepare holds while it records its job (lockForRescreen), so the job is
     * either recorded before (its hold stays, for its own job to settle) or never.
     */
    async delete(id: string, userId: string): Promise<boolean> {
      return inTransaction(pool, async (client) => {
        const { rows } = await client.query<{ first_request_id: string | null }>(
          `UPDATE monitors SET status = 'deleted', deleted_at = now()
           WHERE id = $1 AND user_id = $2 AND status <> 'deleted' RETURNING first_request_id`,
          [id, userId],
        );
        if (!rows[0]) return false;
        await client.query('DELETE FROM monitor_watch WHERE monitor_id = $1', [id]);
        const first = rows[0].first_request_id;
        if (first)
          await client.query(
            `SELECT release_hold($1) WHERE NOT EXISTS (SELECT 1 FROM screening_jobs WHERE request_id = $2)`,
            [first, first],
          );
        return true;
      });
    },

    /**
     * The monitor, its row locked (FOR SHARE) until the caller's transaction ends: a re-screen's prepare holds it
     * while it records its job, so a delete cannot release the first hold in between (see delete).
     */
    /** Records re-screens asked for (the owner, a list version); the signal that follows only wakes the workflow. */
    async requestRescreens(ids: readonly string[], reason: string): Promise<void> {
      await requestRescreens(pool, ids, reason);
    },

    async lockForRescreen(client: PoolClient, id: string): Promise<Monitor | null> {
      const { rows } = await client.query(`SELECT ${COLUMNS} FROM monitors WHERE id = $1 FOR SHARE`, [id]);
      return rows[0] ? toMonitor(rows[0]) : null;
    },

    async pausedForUser(userId: string): Promise<string[]> {
      const { rows } = await pool.query<{ id: string }>(
        `SELECT id FROM monitors WHERE user_id = $1 AND status = 'paused'`,
        [userId],
      );
      return rows.map((r) => r.id);
    },

    /** The monitors watching any of these addresses (their target or an address of their last crawl). */
    async watching(addresses: readonly string[]): Promise<string[]> {
      if (addresses.length === 0) return [];
      const { rows } = await pool.query<{ monitor_id: string }>(
        `SELECT DISTINCT w.monitor_id FROM monitor_watch w JOIN monitors m ON m.id = w.monitor_id
         WHERE w.address = ANY($1) AND m.status <> 'deleted'`,
        [addresses],
      );
      return rows.map((r) => r.monitor_id);
    },

    async alerts(monitorId: string, limit: number, offset: number): Promise<{ alerts: MonitorAlert[]; total: number }> {
      const [page, count] = await Promise.all([
        pool.query(
          `SELECT * FROM monitor_alerts WHERE monitor_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
          [monitorId, limit, offset],
        ),
        pool.query<{ n: number }>('SELECT count(*)::int AS n FROM monitor_alerts WHERE monitor_id = $1', [monitorId]),
      ]);
      return { alerts: page.rows.map(toAlert), total: count.rows[0]?.n ?? 0 };
    },

    /**
     * Records a re-screen's result in one transaction: the new summary, the watched addresses (target and crawl),
     * and the alert if there is one (idempotent per request: a retried evaluation stores it once).
     */
    async recordScreening(
      client: PoolClient,
      r: {
        monitorId: string;
        userId: string;
        requestId: string;
        summary: MonitorSummary;
        watched: string[];
        alert: { reason: string; before: MonitorSummary } | null;
      },
    ): Promise<boolean> {
      await client.query(
        `UPDATE monitors SET last_request_id = $2, last_result = $3, last_screened_at = now(),
           status = CASE WHEN status = 'paused' THEN 'active' ELSE status END, paused_reason = NULL
         WHERE id = $1 AND status <> 'deleted'`,
        [r.monitorId, r.requestId, JSON.stringify(r.summary)],
      );
      await client.query('DELETE FROM monitor_watch WHERE monitor_id = $1', [r.monitorId]);
      await client.query(
        `INSERT INTO monitor_watch (address, monitor_id)
         SELECT DISTINCT unnest($2::text[]), $1::uuid ON CONFLICT DO NOTHING`,
        [r.monitorId, r.watched],
      );
      if (!r.alert) return false;
      const { rowCount } = await client.query(
        `INSERT INTO monitor_alerts (id, monitor_id, user_id, kind, request_id, before, after, reason)
         VALUES ($1, $2, $3, 'risk_changed', $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        [
          randomUUID(),
          r.monitorId,
          r.userId,
          r.requestId,
          JSON.stringify(r.alert.before),
          JSON.stringify(r.summary),
          r.alert.reason,
        ],
      );
      return (rowCount ?? 0) > 0;
    },

    /** Pauses (or resumes) with an alert saying why; idempotent per (monitor, request, kind). */
    async setPaused(
      monitorId: string,
      userId: string,
      paused: boolean,
      reason: string,
      requestId: string | null,
    ): Promise<void> {
      await inTransaction(pool, async (client) => {
        const { rowCount } = await client.query(
          `UPDATE monitors SET status = $2, paused_reason = $3 WHERE id = $1 AND status = $4`,
          [monitorId, paused ? 'paused' : 'active', paused ? reason : null, paused ? 'active' : 'paused'],
        );
        if (rowCount) {
          await client.query(
            `INSERT INTO monitor_alerts (id, monitor_id, user_id, kind, request_id, reason)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
            [randomUUID(), monitorId, userId, paused ? 'paused' : 'resumed', requestId, reason],
          );
        }
      });
    },
  };
}

export type MonitorStore = ReturnType<typeof createMonitorStore>;
