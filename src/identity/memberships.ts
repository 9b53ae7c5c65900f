/** The account_members statements both the team routes and Clerk's webhook run, in the caller's transaction. */
import type { PoolClient } from 'pg';
import type { TeamMember, TeamRole } from './team';

interface MemberRow {
  member_id: string;
  role: TeamRole;
  status: 'active' | 'removed';
  created_at: Date;
  removed_at: Date | null;
  email: string | null;
  display_name: string | null;
}

/** A member with what the team lists of them (their person's email and name). */
export const MEMBER_SELECT = `SELECT m.member_id, m.role, m.status, m.created_at, m.removed_at, p.email, p.display_name
  FROM account_members m JOIN users p ON p.id = m.member_id`;

export const toTeamMember = (r: MemberRow): TeamMember => ({
  id: r.member_id,
  role: r.role,
  email: r.email,
  displayName: r.display_name,
  status: r.status,
  joinedAt: r.created_at.toISOString(),
  removedAt: r.removed_at?.toISOString() ?? null,
});

export async function memberOf(client: PoolClient, accountId: string, memberId: string): Promise<TeamMember | null> {
  const { rows } = await client.query<MemberRow>(`${MEMBER_SELECT} WHERE m.account_id = $1 AND m.member_id = $2`, [
    accountId,
    memberId,
  ]);
  return rows[0] ? toTeamMember(rows[0]) : null;
}

/**
 * Revokes the keys the member made on the account (they act as that member, who is leaving). A key from before teams
 * (created_by NULL) was made by the account itself. The revocation trigger announces each key
 * (api-key-revocation-events.sql), so every api instance drops it at once. Returns the revoked keys' ids.
 */
export async function revokeMemberKeys(client: PoolClient, accountId: string, memberId: string): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `UPDATE api_keys SET revoked_at = now()
     WHERE user_id = $1 AND coalesce(created_by, user_id) = $2 AND revoked_at IS NULL RETURNING id`,
    [accountId, memberId],
  );
  return rows.map((r) => r.id);
}

/**
 * Marks the membership removed as of `at` (recorded as synced_at: a Clerk event older than it changes the row no
 * more), unless a change at least as recent is already recorded; a membership never seen is recorded removed, so its
 * late creation event cannot add it. Returns whether the removal applied (false: a newer change is recorded).
 */
export async function markRemoved(
  client: PoolClient,
  p: { accountId: string; memberId: string; at: string },
): Promise<boolean> {
  const { rows } = await client.query(
    `INSERT INTO account_members (account_id, member_id, role, status, removed_at, synced_at)
     VALUES ($1, $2, 'analyst', 'removed', $3, $3)
     ON CONFLICT (account_id, member_id) DO UPDATE SET status = 'removed',
       removed_at = coalesce(account_members.removed_at, EXCLUDED.removed_at), synced_at = EXCLUDED.synced_at,
       updated_at = now()
     WHERE account_members.synced_at IS NULL OR account_members.synced_at < EXCLUDED.synced_at
     RETURNING 1`,
    [p.accountId, p.memberId, p.at],
  );
  return rows.length > 0;
}

/**
 * Sets the member's role and makes them active as of `at`, unless a change at least as recent is recorded (a late
 * older Clerk delivery changes nothing). Returns whether the row changed.
 */
export async function upsertMember(
  client: PoolClient,
  p: { accountId: string; memberId: string; role: TeamRole; at: string },
): Promise<boolean> {
  const { rows } = await client.query(
    `INSERT INTO account_members (account_id, member_id, role, synced_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (account_id, member_id) DO UPDATE SET role = EXCLUDED.role, status = 'active', removed_at = NULL,
       synced_at = EXCLUDED.synced_at, updated_at = now()
     WHERE account_members.synced_at IS NULL OR account_members.synced_at < EXCLUDED.synced_at
     RETURNING 1`,
    [p.accountId, p.memberId, p.role, p.at],
  );
  return rows.length > 0;
}
