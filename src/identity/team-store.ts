import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '../platform/db/transaction';
import { isUuid } from '../platform/http/common-patterns';
import { MEMBER_SELECT, memberOf, revokeMemberKeys, toTeamMember } from './memberships';
import type { AccountKind, TeamMember, TeamRole } from './team';
import { LastTeamAdminError } from './team-errors';

/** An account with its members (GET /api/v1/team). */
export interface Team {
  account: { id: string; kind: AccountKind; name: string | null };
  members: TeamMember[];
}

/**
 * Locks every membership of the account, in one order, for the rest of the transaction: two admins changing roles
 * at once take turns, so the last active admin cannot be removed by two concurrent requests that each saw another.
 * Returns the account's active admins.
 */
async function lockTeam(client: PoolClient, accountId: string): Promise<string[]> {
  const { rows } = await client.query<{ member_id: string; role: TeamRole; status: string }>(
    'SELECT member_id, role, status FROM account_members WHERE account_id = $1 ORDER BY member_id FOR UPDATE',
    [accountId],
  );
  return rows.filter((r) => r.status === 'active' && r.role === 'admin').map((r) => r.member_id);
}

/** Whether taking `memberId` out of the admins leaves the account without an active one. */
const isLastAdmin = (admins: string[], memberId: string) => admins.length === 1 && admins[0] === memberId;

/** The team routes' reads and writes: members of one account, changed by its admins (team-routes.ts). */
export function createTeamStore(pool: Pool) {
  return {
    async team(accountId: string): Promise<Team> {
      const account = await pool.query<{ id: string; kind: AccountKind; display_name: string | null }>(
        'SELECT id, kind, display_name FROM users WHERE id = $1',
        [accountId],
      );
      const members = await pool.query(
        `${MEMBER_SELECT} WHERE m.account_id = $1 ORDER BY m.status, m.created_at, m.member_id`,
        [accountId],
      );
      const row = account.rows[0];
      return {
        account: { id: accountId, kind: row?.kind ?? 'person', name: row?.display_name ?? null },
        members: members.rows.map(toTeamMember),
      };
    },

    /**
     * Sets an active member's role. Null when `memberId` is no active member of the account; LastTeamAdminError when
     * it would demote the last active admin. Recorded as of now (synced_at): a Clerk event older than this change
     * does not undo it.
     */
    async setRole(accountId: string, memberId: string, role: TeamRole): Promise<TeamMember | null> {
      if (!isUuid(memberId)) return null;
      return inTransaction(pool, async (client) => {
        const admins = await lockTeam(client, accountId);
        const member = await memberOf(client, accountId, memberId);
        if (member?.status !== 'active') return null;
        if (role !== 'admin' && isLastAdmin(admins, memberId)) throw new LastTeamAdminError();
        await client.query(
          `UPDATE account_members SET role = $3, synced_at = greatest(synced_at, now()), updated_at = now()
           WHERE account_id = $1 AND member_id = $2`,
          [accountId, memberId, role],
        );
        return memberOf(client, accountId, memberId);
      });
    },

    /**
     * Removes a member from the team and revokes the keys they made on it, in one transaction: their sessions and keys
     * stop at once (the membership's and the keys' outbox events). Null for no member of the account; a removed member
     * is answered as it is (nothing more to do). LastTeamAdminError when they are the last active admin.
     */
    async removeMember(
      accountId: string,
      memberId: string,
    ): Promise<{ member: TeamMember; revokedKeyIds: string[] } | null> {
      if (!isUuid(memberId)) return null;
      return inTransaction(pool, async (client) => {
        const admins = await lockTeam(client, accountId);
        const member = await memberOf(client, accountId, memberId);
        if (!member) return null;
        if (member.status === 'removed') return { member, revokedKeyIds: [] };
        if (isLastAdmin(admins, memberId)) throw new LastTeamAdminError();
        // An admin's decision holds over a Clerk event older than it (synced_at), whatever Clerk's clock said before.
        await client.query(
          `UPDATE account_members SET status = 'removed', removed_at = now(), synced_at = greatest(synced_at, now()),
             updated_at = now()
           WHERE account_id = $1 AND member_id = $2`,
          [accountId, memberId],
        );
        const revokedKeyIds = await revokeMemberKeys(client, accountId, memberId);
        return { member: (await memberOf(client, accountId, memberId)) as TeamMember, revokedKeyIds };
      });
    },
  };
}

export type TeamStore = ReturnType<typeof createTeamStore>;
