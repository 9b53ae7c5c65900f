import type { Pool } from 'pg';
import type { OrgClaim } from './org-claims';
import type { TeamRole } from './team';
import type { User } from './users-store';

interface AccountRow {
  id: string;
  clerk_user_id: string | null;
  email: string | null;
  role: 'user' | 'admin';
  status: 'active' | 'deactivated';
  kind: 'person' | 'organization';
}

const ACCOUNT_COLUMNS = 'id, clerk_user_id, email, role, status, kind';

/**
 * The organization's account, created on first sight (an organization's session may come before Clerk's
 * organization.created). A concurrent first sight inserts nothing and reads the winner's row.
 */
async function organizationAccount(pool: Pool, clerkOrgId: string): Promise<AccountRow> {
  for (;;) {
    const found = await pool.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM users WHERE clerk_org_id = $1`, [
      clerkOrgId,
    ]);
    if (found.rows[0]) return found.rows[0];
    const inserted = await pool.query<AccountRow>(
      `INSERT INTO users (kind, clerk_org_id) VALUES ('organization', $1) ON CONFLICT (clerk_org_id) DO NOTHING
       RETURNING ${ACCOUNT_COLUMNS}`,
      [clerkOrgId],
    );
    if (inserted.rows[0]) return inserted.rows[0];
  }
}

/**
 * The person's membership of the account: the stored row is authoritative (a removed member stays removed, whatever
 * the token says; a role changed here or by Clerk's webhook wins over the token's). Without a row, the token's role
 * makes one: Clerk issued the token, so the person is a member, and the webhook corrects the role if it differs.
 */
async function membership(
  pool: Pool,
  accountId: string,
  personId: string,
  tokenRole: TeamRole,
): Promise<{ role: TeamRole; status: 'active' | 'removed' }> {
  for (;;) {
    const { rows } = await pool.query<{ role: TeamRole; status: 'active' | 'removed' }>(
      `WITH made AS (
         INSERT INTO account_members (account_id, member_id, role) VALUES ($1, $2, $3)
         ON CONFLICT (account_id, member_id) DO NOTHING RETURNING role, status
       )
       SELECT role, status FROM made
       UNION ALL SELECT role, status FROM account_members WHERE account_id = $1 AND member_id = $2
       LIMIT 1`,
      [accountId, personId, tokenRole],
    );
    // Empty only when a concurrent first request inserted the row after this statement's snapshot: read it again.
    if (rows[0]) return rows[0];
  }
}

/**
 * Resolves a verified session acting in a Clerk organization: the person (provisioned as for a personal session),
 * the organization's account, and the person's membership of it. Null when the person or the organization is
 * deactivated, or the membership was removed: the request is refused like any unusable credential. The
 * organization becomes the person's active account (the one a payment naming them credits), written only when it
 * changes.
 */
export async function provisionOrgSession(
  pool: Pool,
  session: { clerkUserId: string; email: string | null; org: OrgClaim },
): Promise<User | null> {
  const person = (
    await pool.query<{
      id: string;
      status: string;
      email: string | null;
      display_name: string | null;
      active_account_id: string | null;
    }>(
      `INSERT INTO users (clerk_user_id, email) VALUES ($1, $2)
       ON CONFLICT (clerk_user_id) DO UPDATE SET email = coalesce(users.email, EXCLUDED.email)
       RETURNING id, status, email, display_name, active_account_id`,
      [session.clerkUserId, session.email],
    )
  ).rows[0];
  if (person?.status !== 'active') return null;
  const account = await organizationAccount(pool, session.org.clerkOrgId);
  if (account.status !== 'active') return null;
  const member = await membership(pool, account.id, person.id, session.org.role);
  if (member.status !== 'active') return null;
  if (person.active_account_id !== account.id) {
    await pool.query(
      'UPDATE users SET active_account_id = $2 WHERE id = $1 AND active_account_id IS DISTINCT FROM $2',
      [person.id, account.id],
    );
  }
  return {
    id: account.id,
    clerkUserId: account.clerk_user_id,
    email: account.email,
    role: account.role,
    status: account.status,
    kind: account.kind,
    member: { id: person.id, role: member.role, email: person.email, displayName: person.display_name },
  };
}
