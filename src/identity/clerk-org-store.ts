/**
 * Clerk's organization events applied to accounts and memberships (apply-clerk-event.ts), each in the caller's
 * transaction and guarded by the event time like a user's profile (users-store.ts applyClerkProfile): a late, older
 * delivery changes nothing, and a deleted organization is never brought back.
 */
import type { PoolClient } from 'pg';
import { markRemoved, revokeMemberKeys, upsertMember } from './memberships';
import type { TeamRole } from './team';

/** An organization's account by its Clerk id, written if unseen (a membership can arrive before its organization). */
async function organizationId(client: PoolClient, clerkOrgId: string): Promise<{ id: string; deleted: boolean }> {
  await client.query(
    `INSERT INTO users (kind, clerk_org_id) VALUES ('organization', $1) ON CONFLICT (clerk_org_id) DO NOTHING`,
    [clerkOrgId],
  );
  const { rows } = await client.query<{ id: string; deleted: boolean }>(
    'SELECT id, deleted_at IS NOT NULL AS deleted FROM users WHERE clerk_org_id = $1',
    [clerkOrgId],
  );
  return rows[0] as { id: string; deleted: boolean };
}

/** A person's account by its Clerk user id, written if unseen (its profile comes with its own user.* events). */
async function personId(
  client: PoolClient,
  p: { clerkUserId: string; email?: string | null; displayName?: string | null },
): Promise<string> {
  await client.query(
    `INSERT INTO users (clerk_user_id, email, display_name) VALUES ($1, $2, $3) ON CONFLICT (clerk_user_id) DO NOTHING`,
    [p.clerkUserId, p.email ?? null, p.displayName ?? null],
  );
  const { rows } = await client.query<{ id: string }>('SELECT id FROM users WHERE clerk_user_id = $1', [p.clerkUserId]);
  return (rows[0] as { id: string }).id;
}

export interface OrgEventOutcome {
  accountId: string;
  changed: boolean;
  detail: string;
}

/** organization.created / updated: the organization's account and its name. */
export async function applyClerkOrganization(
  client: PoolClient,
  p: { clerkOrgId: string; name: string | null; at: string },
): Promise<OrgEventOutcome> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO users (kind, clerk_org_id, display_name, clerk_synced_at) VALUES ('organization', $1, $2, $3)
     ON CONFLICT (clerk_org_id) DO UPDATE SET display_name = EXCLUDED.display_name,
       clerk_synced_at = EXCLUDED.clerk_synced_at, updated_at = now()
     WHERE users.deleted_at IS NULL AND (users.clerk_synced_at IS NULL OR users.clerk_synced_at < ` +
      `EXCLUDED.clerk_synced_at)
     RETURNING id`,
    [p.clerkOrgId, p.name, p.at],
  );
  if (rows[0]) return { accountId: rows[0].id, changed: true, detail: 'organization saved' };
  const { id } = await organizationId(client, p.clerkOrgId);
  return { accountId: id, changed: false, detail: 'a newer change or a deletion was already applied' };
}

/**
 * organization.deleted: the organization's account is deactivated as a deleted user's is (created deactivated if
 * unseen) and its keys are revoked; the caller stops its monitors and releases its holds (apply-clerk-event.ts).
 */
export async function deactivateClerkOrganization(
  client: PoolClient,
  p: { clerkOrgId: string; at: string },
): Promise<OrgEventOutcome> {
  const before = await client.query<{ status: string }>('SELECT status FROM users WHERE clerk_org_id = $1 FOR UPDATE', [
    p.clerkOrgId,
  ]);
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO users (kind, clerk_org_id, status, deleted_at, clerk_synced_at)
     VALUES ('organization', $1, 'deactivated', $2, $2)
     ON CONFLICT (clerk_org_id) DO UPDATE SET status = 'deactivated',
       deleted_at = coalesce(users.deleted_at, EXCLUDED.deleted_at),
       clerk_synced_at = greatest(users.clerk_synced_at, EXCLUDED.clerk_synced_at), updated_at = now()
     RETURNING id`,
    [p.clerkOrgId, p.at],
  );
  const accountId = (rows[0] as { id: string }).id;
  await client.query('UPDATE api_keys SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [accountId]);
  const changed = before.rows[0]?.status !== 'deactivated';
  return {
    accountId,
    changed,
    detail: changed ? 'organization deactivated; API keys revoked' : 'organization was already deactivated',
  };
}

/** organizationMembership.created / updated: the person is an active member with the role Clerk gives them. */
export async function applyClerkMembership(
  client: PoolClient,
  p: {
    clerkOrgId: string;
    clerkUserId: string;
    role: TeamRole;
    email: string | null;
    displayName: string | null;
    at: string;
  },
): Promise<OrgEventOutcome> {
  const org = await organizationId(client, p.clerkOrgId);
  if (org.deleted) return { accountId: org.id, changed: false, detail: 'the organization was deleted' };
  const memberId = await personId(client, p);
  const changed = await upsertMember(client, { accountId: org.id, memberId, role: p.role, at: p.at });
  return {
    accountId: org.id,
    changed,
    detail: changed ? `member saved as ${p.role}` : 'a newer change to this membership was already applied',
  };
}

/**
 * organizationMembership.deleted: the member is removed and the keys they made on the organization are revoked, in
 * the event's transaction (their sessions stop with the membership's outbox event).
 */
export async function removeClerkMembership(
  client: PoolClient,
  p: { clerkOrgId: string; clerkUserId: string; at: string },
): Promise<OrgEventOutcome> {
  const org = await organizationId(client, p.clerkOrgId);
  const memberId = await personId(client, p);
  if (!(await markRemoved(client, { accountId: org.id, memberId, at: p.at })))
    return { accountId: org.id, changed: false, detail: 'a newer change to this membership was already applied' };
  const revoked = await revokeMemberKeys(client, org.id, memberId);
  return {
    accountId: org.id,
    changed: true,
    detail: `member removed${revoked.length > 0 ? `; ${revoked.length} API keys revoked` : ''}`,
  };
}
