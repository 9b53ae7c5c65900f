import type { PoolClient } from 'pg';

/**
 * Marks every live (active or paused) monitor of a user deleted, in the caller's transaction (the user's
 * deactivation), drops their watched addresses as a delete does, and returns their ids: the caller stops their
 * workflows (`monitor:<id>`, signal `stop`). Idempotent: a second call finds nothing live and returns [].
 */
export async function stopUserMonitors(client: PoolClient, userId: string): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `UPDATE monitors SET status = 'deleted', deleted_at = now() ` +
      `WHERE user_id = $1 AND status <> 'deleted' RETURNING id`,
    [userId],
  );
  const ids = rows.map((r) => r.id);
  if (ids.length > 0) await client.query('DELETE FROM monitor_watch WHERE monitor_id = ANY($1::uuid[])', [ids]);
  return ids;
}

/**
 * The monitors the user's deletion stopped, for a retry that finds the deletion already committed: the last ones the
 * user lost, which one transaction marked with one deleted_at (now() is the transaction's start). Once a user is
 * deactivated its keys are revoked, so no later delete can have moved that mark.
 */
export async function monitorsStoppedWithUser(client: PoolClient, userId: string): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM monitors WHERE user_id = $1 AND status = 'deleted'
       AND deleted_at = (SELECT max(deleted_at) FROM monitors WHERE user_id = $1 AND status = 'deleted')`,
    [userId],
  );
  return rows.map((r) => r.id);
}
