import { randomUUID } from 'node:crypto';
import { generateApiKey } from '../../src/identity/api-key-format';
import type { TeamRole } from '../../src/identity';
import { recordSecret } from './run-log';
import type { TestStack } from './test-stack';

/** A fresh Clerk-shaped id (`org_…`, `user_…`): every team and person of a test is its own. */
const clerkId = (prefix: 'org' | 'user') => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

export interface TestTeam {
  /** The organization's account: what its credits, keys, jobs, monitors and cases belong to. */
  accountId: string;
  /** Its Clerk organization id (a session token's `o.id` / `org_id`, a membership event's `organization.id`). */
  clerkOrgId: string;
  /** One person per role asked for, in that order, each with an API key on the team's account made by them. */
  members: {
    memberId: string;
    role: TeamRole;
    key: string;
    /** The person's Clerk user id (a session token's `sub`, a membership event's `public_user_data.user_id`). */
    clerkUserId: string;
  }[];
}

/**
 * An organization account with one person per role in `roles` (their own accounts exist too, as for every person),
 * each holding an API key on the ORGANIZATION's account created by them, and `credits` granted to the organization.
 * Written through the stores and SQL, as the Clerk webhook and a session would leave them.
 */
export async function createTeam(
  stack: TestStack,
  options: { roles: TeamRole[]; credits?: number },
): Promise<TestTeam> {
  const clerkOrgId = clerkId('org');
  const { rows } = await stack.pool.query<{ id: string }>(
    `INSERT INTO users (kind, clerk_org_id, display_name) VALUES ('organization', $1, 'Test team') RETURNING id`,
    [clerkOrgId],
  );
  const accountId = (rows[0] as { id: string }).id;
  const members: TestTeam['members'] = [];
  for (const [i, role] of options.roles.entries()) {
    const clerkUserId = clerkId('user');
    const person = await stack.pool.query<{ id: string }>(
      'INSERT INTO users (clerk_user_id, email, display_name) VALUES ($1, $2, $3) RETURNING id',
      [clerkUserId, `${role}-${i}-${clerkUserId.slice(5, 13)}@example.com`, `Test ${role} ${i}`],
    );
    const memberId = (person.rows[0] as { id: string }).id;
    await stack.pool.query('INSERT INTO account_members (account_id, member_id, role) VALUES ($1, $2, $3)', [
      accountId,
      memberId,
      role,
    ]);
    const key = generateApiKey();
    recordSecret(key);
    await stack.stores.users.createApiKey(accountId, `${role} ${i}`, key, { createdBy: memberId });
    members.push({ memberId, role, key, clerkUserId });
  }
  if (options.credits && options.credits > 0)
    await stack.stores.credits.grant({
      userId: accountId,
      amount: options.credits,
      idempotencyKey: `test-team-seed:${accountId}`,
      reason: 'test seed',
      source: 'test',
    });
  return { accountId, clerkOrgId, members };
}

/**
 * Removes a member the way a team admin does: DELETE /api/v1/team/members/{memberId} with a key made for the purpose
 * by another active admin of the account (or by the member, when they are an admin themselves: the route refuses the
 * last admin with 409). Their sessions and keys on the account are refused from the answer on. Returns the answer.
 */
export async function removeMember(
  stack: TestStack,
  accountId: string,
  memberId: string,
): Promise<{ status: number; body: any }> {
  const { rows } = await stack.pool.query<{ member_id: string }>(
    `SELECT member_id FROM account_members WHERE account_id = $1 AND role = 'admin' AND status = 'active'
     ORDER BY member_id = $2, member_id LIMIT 1`,
    [accountId, memberId],
  );
  const admin = rows[0]?.member_id;
  if (!admin) throw new Error(`account ${accountId} has no active admin to remove ${memberId}`);
  const key = generateApiKey();
  recordSecret(key);
  const made = await stack.stores.users.createApiKey(accountId, 'remove member', key, { createdBy: admin });
  try {
    const res = await stack.http('DELETE', `/api/v1/team/members/${memberId}`, { key });
    if (res.status !== 200) throw new Error(`removing ${memberId} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res;
  } finally {
    await stack.stores.users.revokeApiKey(accountId, made.id);
  }
}
