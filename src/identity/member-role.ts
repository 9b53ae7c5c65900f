import type { Pool } from 'pg';
import type { TeamRole } from './team';

/**
 * The role an active person holds in an account right now, or null (not a member, removed, or deactivated): what
 * the worker checks before it records an action a workflow update claims a member took.
 */
export function createMemberRoleLookup(pool: Pool) {
  return async function memberRole(accountId: string, memberId: string): Promise<TeamRole | null> {
    const { rows } = await pool.query<{ role: TeamRole }>(
      `SELECT m.role FROM account_members m JOIN users u ON u.id = m.member_id
       WHERE m.account_id = $1 AND m.member_id = $2 AND m.status = 'active' AND u.status = 'active'`,
      [accountId, memberId],
    );
    return rows[0]?.role ?? null;
  };
}

export type MemberRoleLookup = ReturnType<typeof createMemberRoleLookup>;
