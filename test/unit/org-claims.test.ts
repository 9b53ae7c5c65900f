import { generateKeyPairSync, sign } from 'node:crypto';
import { createClerkSessionVerifier } from '../../src/identity/clerk-session';
import { readOrgClaim, teamRoleOf } from '../../src/identity/org-claims';

/**
 * The organization a Clerk session token acts in: v2's `o: {id, rol, slg}` (rol without the `org:` prefix), v1's
 * `org_id` / `org_role` (`org:<key>`), or none (the person's own account); Clerk roles this service does not name map
 * to analyst, the least a member can be.
 */
describe('readOrgClaim', () => {
  test('when a v2 token carries o.id and o.rol, then the organization and its role are read', () => {
    expect(readOrgClaim({ sub: 'user_1', v: 2, o: { id: 'org_2v2', rol: 'admin', slg: 'acme' } })).toEqual({
      clerkOrgId: 'org_2v2',
      role: 'admin',
    });
  });

  test('when a v1 token carries org_id and org_role with the org: prefix, then the prefix is dropped', () => {
    expect(readOrgClaim({ sub: 'user_1', org_id: 'org_2v1', org_role: 'org:approver', org_slug: 'acme' })).toEqual({
      clerkOrgId: 'org_2v1',
      role: 'approver',
    });
  });

  test('when a token has no organization claim, then the session acts in the own account (null)', () => {
    expect(readOrgClaim({ sub: 'user_1', v: 2 })).toBeNull();
    expect(readOrgClaim({ sub: 'user_1', o: null, org_id: '' })).toBeNull();
    expect(readOrgClaim({ sub: 'user_1', o: { rol: 'admin' } })).toBeNull();
  });

  test('when both formats are present, then v2 (what Clerk itself writes) wins', () => {
    expect(readOrgClaim({ o: { id: 'org_new', rol: 'analyst' }, org_id: 'org_old', org_role: 'org:admin' })).toEqual({
      clerkOrgId: 'org_new',
      role: 'analyst',
    });
  });

  test.each([
    ['admin', 'admin'],
    ['org:admin', 'admin'],
    ['approver', 'approver'],
    ['org:analyst', 'analyst'],
    ['member', 'analyst'],
    ['org:member', 'analyst'],
    ['org:billing_manager', 'analyst'],
    ['', 'analyst'],
    [undefined, 'analyst'],
    [42, 'analyst'],
    ['ADMIN', 'analyst'],
  ])('when the Clerk role is %p, then the team role is %p (unknown roles: least privilege)', (clerkRole, team) => {
    expect(teamRoleOf(clerkRole)).toBe(team);
  });
});

describe('a verified session token', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const verify = createClerkSessionVerifier({
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    authorizedParties: [],
  });
  const token = (claims: Record<string, unknown>) => {
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const input = `${enc({ alg: 'RS256', typ: 'JWT' })}.${enc(claims)}`;
    return `${input}.${sign('RSA-SHA256', Buffer.from(input), privateKey).toString('base64url')}`;
  };
  const exp = Math.floor(Date.now() / 1000) + 60;

  test('when it names an organization, then the session carries it; without one it carries none', () => {
    expect(verify(token({ sub: 'user_1', exp, o: { id: 'org_1', rol: 'member' } })).org).toEqual({
      clerkOrgId: 'org_1',
      role: 'analyst',
    });
    expect(verify(token({ sub: 'user_1', exp, org_id: 'org_2', org_role: 'org:approver' })).org).toEqual({
      clerkOrgId: 'org_2',
      role: 'approver',
    });
    expect(verify(token({ sub: 'user_1', exp })).org).toBeUndefined();
  });
});
