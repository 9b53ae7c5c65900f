import type { PoolClient } from 'pg';

/**
 * Gives back every credit hold of a user (a deleted account: its running jobs will charge nothing), in the caller's
 * transaction, through release_hold (credits.sql) so `reserved` falls by exactly what the holds held. The account row
 * is locked first, in the order every credit function locks (account, then hold), so a concurrent charge or hold of
 * the same user waits instead of deadlocking. Returns the credits released; idempotent (a second call releases 0).
 */
export async function releaseUserHolds(client: PoolClient, userId: string): Promise<number> {
  await client.query('SELECT 1 FROM credit_accounts WHERE user_id = $1 FOR UPDATE', [userId]);
  const { rows } = await client.query<{ released: string | null }>(
    `SELECT sum(release_hold(h.hold_key)) AS released
       FROM (SELECT hold_key FROM credit_holds WHERE user_id = $1 ORDER BY hold_key) h`,
    [userId],
  );
  return Number(rows[0]?.released ?? 0);
}
