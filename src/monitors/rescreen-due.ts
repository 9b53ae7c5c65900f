import type { PoolClient, Pool } from 'pg';
import type { Monitor } from './monitors-store';

/**
 * Slack on the schedule: the workflow's timer runs from the end of the last evaluation, which stamps
 * last_screened_at, so a due scheduled re-screen is at least every_hours late; the minutes cover clocks and retries.
 */
const SCHEDULE_SLACK = '5 minutes';

/**
 * Whether a re-screen of `monitor` under `requestId` may run: a signal only wakes the workflow, and anyone who
 * reaches the Temporal frontend can send one, so the reasons that make an owner pay are read from Postgres. Due when
 * it is the monitor's first job (held at create), a retry of one already recorded, a re-screen someone asked
 * for and nobody answered yet (monitor_rescreen_requests), or the schedule (every_hours since the last one).
 */
export async function rescreenIsDue(client: PoolClient, monitor: Monitor, requestId: string): Promise<boolean> {
  if (requestId === monitor.firstRequestId) return true;
  const { rows } = await client.query<{ due: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM screening_jobs WHERE request_id = $2::uuid)
         OR EXISTS (SELECT 1 FROM monitor_rescreen_requests WHERE monitor_id = $1 AND answered_by IS NULL)
         OR m.last_screened_at IS NULL
         OR m.last_screened_at <= now() - make_interval(hours => m.every_hours) + interval '${SCHEDULE_SLACK}' AS due
     FROM monitors m WHERE m.id = $1`,
    [monitor.id, requestId],
  );
  return rows[0]?.due === true;
}

/** The pending requests the re-screen `requestId` answers (in its prepare's transaction, once its job is recorded). */
export async function answerRescreenRequests(client: PoolClient, monitorId: string, requestId: string): Promise<void> {
  await client.query(
    'UPDATE monitor_rescreen_requests SET answered_by = $2 WHERE monitor_id = $1 AND answered_by IS NULL',
    [monitorId, requestId],
  );
}

/** Records that a re-screen was asked for, before the signal that wakes the monitor's workflow. */
export async function requestRescreens(db: Pool | PoolClient, monitorIds: readonly string[], reason: string) {
  if (monitorIds.length === 0) return;
  await db.query('INSERT INTO monitor_rescreen_requests (monitor_id, reason) SELECT unnest($1::uuid[]), $2', [
    monitorIds,
    reason,
  ]);
}
