import { createIdentityCache } from '../../src/identity/identity-cache';
import type { Identity } from '../../src/identity/authenticate';

/**
 * A team's cached credentials carry the account and the member acting for it: an identity event naming either drops
 * them (a person deleted or whose email changed is seen in every team they act for; a membership change is
 * announced under the account).
 */
const memberOfTeam = (memberId: string): Identity => ({
  user: {
    id: 'team-1',
    clerkUserId: null,
    email: null,
    role: 'user',
    status: 'active',
    kind: 'organization',
    member: { id: memberId, role: 'analyst', email: null, displayName: null },
  },
});

describe('the identity cache and team members', () => {
  const setUp = async () => {
    const cache = createIdentityCache({ ttlMs: 60_000 });
    cache.setListening(true);
    let loads = 0;
    const resolve = (credential: string, memberId: string) =>
      cache.resolve('session', credential, async () => {
        loads++;
        return memberOfTeam(memberId);
      });
    await resolve('token-a', 'person-a');
    await resolve('token-b', 'person-b');
    return { cache, resolve, loads: () => loads };
  };

  test('when an event names a member, then only the credentials they act with are read again', async () => {
    const { cache, resolve, loads } = await setUp();
    cache.observe({ event: 'account_deactivated', userId: 'person-a' });
    await resolve('token-a', 'person-a');
    await resolve('token-b', 'person-b');
    expect(loads()).toBe(3);
  });

  test("when an event names the team, then every member's credentials are read again", async () => {
    const { cache, resolve, loads } = await setUp();
    cache.observe({ event: 'credentials_changed', userId: 'team-1', payload: { memberId: 'person-b' } });
    await resolve('token-a', 'person-a');
    await resolve('token-b', 'person-b');
    expect(loads()).toBe(4);
  });

  test('when this process forgets a member, then their credentials in the team are dropped', async () => {
    const { cache, resolve, loads } = await setUp();
    cache.forgetUser('person-b');
    await resolve('token-a', 'person-a');
    await resolve('token-b', 'person-b');
    expect(loads()).toBe(3);
  });
});
