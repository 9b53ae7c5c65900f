/**
 * Teams (issue 30, part 1): an account is a person or a Clerk organization whose members act for it with a role.
 * Session tokens name the organization (v2 `o`, v1 `org_id`/`org_role`), Clerk's organization events keep the members,
 * members share what the account holds and nobody else sees it, team admins manage members, a removed member is
 * refused at once (with the authentication cache on: AUTH_CACHE_TTL_MS is a minute here, so only the drop on the
 * change can explain a refusal), and a payment naming a person credits the team they act in.
 */
import { randomUUID } from 'node:crypto';
import { balanceOf, processedEvent } from '../helpers/billing';
import { createTestSigner } from '../helpers/jwt';
import { connectRecording } from '../helpers/realtime-client';
import { createTeam, removeMember, type TestTeam } from '../helpers/teams';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';
import { clerkDelivery, paypalVariant, post, testPayPalVerifier, WEBHOOK_ENV } from '../helpers/webhooks';

const CLERK_ROUTE = '/api/webhook/clerk';
const PAYPAL_ROUTE = '/api/v1/billing/paypal/webhook';
const SANCTIONED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
/** How late a change made by the worker may reach the api's cache (the NOTIFY's trip on a loaded machine). */
const LISTENER_DELAY_BOUND_MS = 5_000;

const signer = createTestSigner();
const newClerkUserId = () => `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    env: { ...WEBHOOK_ENV, CLERK_JWT_KEY: signer.publicKeyPem, AUTH_CACHE_TTL_MS: '60000' },
    verifiers: { paypalVerifier: testPayPalVerifier() },
  });
}, 60_000);
afterAll(async () => stack?.stop());

/** A session token as Clerk signs it, with the claims given (an org claim or none). */
const session = (clerkUserId: string, claims: Record<string, unknown> = {}) => {
  const now = Math.floor(Date.now() / 1000);
  return signer.signToken({ sub: clerkUserId, iat: now - 5, nbf: now - 5, exp: now + 600, ...claims });
};
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const v2 = (team: TestTeam, rol: string) => ({ v: 2, o: { id: team.clerkOrgId, rol, slg: 'test-team' } });

/** A Clerk organizationMembership.* event as Clerk's catalog shows it (data: an OrganizationMembership). */
function membershipEvent(
  type: 'created' | 'updated' | 'deleted',
  o: { clerkOrgId: string; clerkUserId: string; role?: string; updatedAt?: number; timestamp?: number },
): string {
  const at = o.updatedAt ?? Date.now();
  return JSON.stringify({
    data: {
      created_at: at - 1000,
      id: `orgmem_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      object: 'organization_membership',
      organization: {
        created_at: at - 60_000,
        id: o.clerkOrgId,
        name: 'Acme Inc',
        object: 'organization',
        public_metadata: {},
        slug: 'acme-inc',
        updated_at: at - 60_000,
      },
      public_metadata: {},
      public_user_data: {
        first_name: 'Example',
        identifier: 'example@example.org',
        last_name: 'Member',
        user_id: o.clerkUserId,
      },
      role: o.role ?? 'org:member',
      updated_at: at,
    },
    object: 'event',
    timestamp: o.timestamp ?? at,
    type: `organizationMembership.${type}`,
  });
}

/** Delivers a signed Clerk event and waits until the worker recorded its outcome. */
async function deliverClerk(body: string): Promise<any> {
  const delivery = clerkDelivery(body);
  expect((await post(stack.api.url, CLERK_ROUTE, delivery)).status).toBe(200);
  return processedEvent(stack, 'clerk', delivery.headers['svix-id'] as string);
}

/** The first status other than `from`, polling as fast as a client could, and how long it took to come. */
async function untilChanged(read: () => Promise<number>, from: number): Promise<{ status: number; ms: number }> {
  const started = Date.now();
  for (;;) {
    const now = await read();
    const ms = Date.now() - started;
    if (now !== from || ms > LISTENER_DELAY_BOUND_MS * 4) return { status: now, ms };
    await new Promise((r) => setTimeout(r, 10));
  }
}

const meWithKey = async (key: string) => (await stack.http('GET', '/api/v1/me', { key })).status;
const meWithToken = async (token: string) => (await stack.http('GET', '/api/v1/me', bearer(token))).status;

describe('session tokens with an organization claim', () => {
  test(
    'when a v2 token (o.id, o.rol) and a v1 token (org_id, org_role) name the organization, then both act for the ' +
      "organization's account with the token's role, and it becomes each person's active account",
    async () => {
      // Arrange
      const team = await createTeam(stack, { roles: ['admin'] });
      const [v2Person, v1Person] = [newClerkUserId(), newClerkUserId()];

      // Act
      const viaV2 = await stack.http('GET', '/api/v1/me', bearer(session(v2Person, v2(team, 'approver'))));
      const viaV1 = await stack.http(
        'GET',
        '/api/v1/me',
        bearer(session(v1Person, { org_id: team.clerkOrgId, org_role: 'org:member', org_slug: 'test-team' })),
      );
      const own = await stack.http('GET', '/api/v1/me', bearer(session(v2Person)));

      // Assert
      expect(viaV2.body.data).toMatchObject({
        id: team.accountId,
        account: { id: team.accountId, kind: 'organization' },
        member: { role: 'approver' },
      });
      // org:member is no role of ours: the least privilege.
      expect(viaV1.body.data).toMatchObject({ id: team.accountId, member: { role: 'analyst' } });
      expect(own.body.data).toMatchObject({ account: { kind: 'person' }, member: { role: 'admin' } });
      expect(own.body.data.id).toBe(own.body.data.member.id);
      expect(own.body.data.member.id).toBe(viaV2.body.data.member.id);
      const active = await stack.pool.query(
        'SELECT clerk_user_id, active_account_id FROM users WHERE clerk_user_id = ANY($1) ORDER BY clerk_user_id',
        [[v2Person, v1Person]],
      );
      // v2Person acted in their own account last (NULL), v1Person in the team.
      expect(Object.fromEntries(active.rows.map((r) => [r.clerk_user_id, r.active_account_id]))).toEqual({
        [v2Person]: null,
        [v1Person]: team.accountId,
      });
    },
  );

  test('when the stored membership says another role than the token, then the stored role holds', async () => {
    const team = await createTeam(stack, { roles: ['admin', 'analyst'] });
    const analyst = team.members[1] as TestTeam['members'][number];
    const me = await stack.http('GET', '/api/v1/me', bearer(session(analyst.clerkUserId, v2(team, 'admin'))));
    expect(me.body.data).toMatchObject({ id: team.accountId, member: { id: analyst.memberId, role: 'analyst' } });
  });
});

describe('members share what the account holds', () => {
  test(
    'when one member submits a job, then another member (key or session) sees the same job and balance, and ' +
      'another organization gets 404',
    async () => {
      // Arrange
      const team = await createTeam(stack, { roles: ['admin', 'analyst'], credits: 10 });
      const [admin, analyst] = team.members as [TestTeam['members'][number], TestTeam['members'][number]];
      const other = await createTeam(stack, { roles: ['admin'], credits: 10 });
      const adminSession = bearer(session(admin.clerkUserId, v2(team, 'admin')));

      // Act
      const submit = await stack.http('POST', '/api/v1/kyt/job', {
        key: analyst.key,
        body: { chain: 'ethereum', address: SANCTIONED, reference_id: 'team-job' },
      });
      const requestId = submit.body.data.request_id as string;
      const polled = await pollUntilDone(stack, analyst.key, requestId);
      const bySession = await stack.http('GET', `/api/v1/kyt/job/${requestId}`, adminSession);
      const byOther = await stack.http('GET', `/api/v1/kyt/job/${requestId}`, { key: other.members[0]?.key });

      // Assert
      expect(submit.status).toBe(202);
      expect(polled.data.status).toBe('completed');
      expect(bySession.status).toBe(200);
      expect(bySession.body.data).toMatchObject({ request_id: requestId, reference_id: 'team-job' });
      expect(byOther.status).toBe(404);
      const balances = await Promise.all([
        stack.http('GET', '/api/v1/credits/balance', { key: analyst.key }),
        stack.http('GET', '/api/v1/credits/balance', adminSession),
      ]);
      expect(balances[0].body.data).toEqual(balances[1].body.data);
      expect(balances[0].body.data.balance).toBe(10 - polled.data.credits_charged);
    },
  );

  test(
    "when the account's credits change, then the sockets of every member signed into it receive the event; " +
      "a removed member's socket is closed",
    async () => {
      // Arrange
      const team = await createTeam(stack, { roles: ['admin', 'analyst'] });
      const [admin, analyst] = team.members as [TestTeam['members'][number], TestTeam['members'][number]];
      const bySession = await connectRecording(stack.api.url, session(admin.clerkUserId, v2(team, 'admin')));
      const byKey = await connectRecording(stack.api.url, analyst.key);
      const closed = new Promise<void>((resolve) => byKey.socket.once('disconnect', () => resolve()));

      try {
        // Act
        await stack.stores.credits.grant({
          userId: team.accountId,
          amount: 5,
          idempotencyKey: `team-socket:${team.accountId}`,
          reason: 'test',
          source: 'test',
        });
        const events = await Promise.all([
          bySession.waitFor('credits_granted', (p) => p.amount === 5),
          byKey.waitFor('credits_granted', (p) => p.amount === 5),
        ]);
        await removeMember(stack, team.accountId, analyst.memberId);
        await closed;

        // Assert
        expect(events.map((e) => e.balance)).toEqual([5, 5]);
        expect(byKey.socket.connected).toBe(false);
        expect(bySession.socket.connected).toBe(true);
      } finally {
        bySession.close();
        byKey.close();
      }
    },
  );
});

describe('team routes', () => {
  test(
    'when members read the team and admins change it, then analysts are refused 403, unknown members 404, the ' +
      'last admin 409, and a removed member loses their key at once',
    async () => {
      // Arrange
      const team = await createTeam(stack, { roles: ['admin', 'analyst', 'approver'] });
      const [admin, analyst, approver] = team.members as TestTeam['members'];
      const listed = await stack.http('GET', '/api/v1/team', { key: analyst!.key });
      expect(await meWithKey(approver!.key)).toBe(200);

      // Act
      const byAnalyst = await stack.http('PUT', `/api/v1/team/members/${approver!.memberId}`, {
        key: analyst!.key,
        body: { role: 'admin' },
      });
      const unknown = await stack.http('PUT', `/api/v1/team/members/${randomUUID()}`, {
        key: admin!.key,
        body: { role: 'analyst' },
      });
      const badRole = await stack.http('PUT', `/api/v1/team/members/${analyst!.memberId}`, {
        key: admin!.key,
        body: { role: 'owner' },
      });
      const demoteLast = await stack.http('PUT', `/api/v1/team/members/${admin!.memberId}`, {
        key: admin!.key,
        body: { role: 'analyst' },
      });
      const removeLast = await stack.http('DELETE', `/api/v1/team/members/${admin!.memberId}`, { key: admin!.key });
      const promoted = await stack.http('PUT', `/api/v1/team/members/${analyst!.memberId}`, {
        key: admin!.key,
        body: { role: 'approver' },
      });
      const removed = await stack.http('DELETE', `/api/v1/team/members/${approver!.memberId}`, { key: admin!.key });
      const approverNext = await meWithKey(approver!.key);
      const again = await stack.http('DELETE', `/api/v1/team/members/${approver!.memberId}`, { key: admin!.key });

      // Assert
      expect(listed.status).toBe(200);
      expect(listed.body.data.account).toEqual({ id: team.accountId, kind: 'organization', name: 'Test team' });
      expect(listed.body.data.you).toEqual({ id: analyst!.memberId, role: 'analyst' });
      expect(listed.body.data.members.map((m: any) => [m.id, m.role, m.status])).toEqual(
        expect.arrayContaining([
          [admin!.memberId, 'admin', 'active'],
          [analyst!.memberId, 'analyst', 'active'],
          [approver!.memberId, 'approver', 'active'],
        ]),
      );
      expect([byAnalyst.status, byAnalyst.body.code]).toEqual([403, 'INSUFFICIENT_TEAM_ROLE']);
      expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
      expect([badRole.status, badRole.body.error.code]).toEqual([400, 'INVALID_PARAMETER']);
      expect([demoteLast.status, demoteLast.body.code]).toEqual([409, 'LAST_TEAM_ADMIN']);
      expect([removeLast.status, removeLast.body.code]).toEqual([409, 'LAST_TEAM_ADMIN']);
      expect([promoted.status, promoted.body.data.role]).toEqual([200, 'approver']);
      expect(removed.status).toBe(200);
      expect(removed.body.data).toMatchObject({ id: approver!.memberId, status: 'removed' });
      expect(removed.body.data.revokedApiKeyIds).toHaveLength(1);
      expect(approverNext).toBe(401);
      expect([again.status, again.body.data.status, again.body.data.revokedApiKeyIds]).toEqual([200, 'removed', []]);
      expect(await meWithKey(admin!.key)).toBe(200);
    },
  );

  test('when a person reads their own account, then it is a one-member team of which they are the admin', async () => {
    const user = await stack.createUser();
    const team = await stack.http('GET', '/api/v1/team', { key: user.key });
    expect(team.body.data).toMatchObject({
      account: { id: user.id, kind: 'person' },
      you: { id: user.id, role: 'admin' },
      members: [{ id: user.id, role: 'admin', status: 'active' }],
    });
    const keys = await stack.http('GET', '/api/v1/api-keys', { key: user.key });
    expect(keys.body.data[0].createdBy).toBe(user.id);
  });

  test(
    'when a member creates a key with a session in the team, ' + 'then the key is the team’s and made by them',
    async () => {
      const team = await createTeam(stack, { roles: ['admin', 'approver'] });
      const approver = team.members[1] as TestTeam['members'][number];
      const created = await stack.http('POST', '/api/v1/api-keys', {
        ...bearer(session(approver.clerkUserId, v2(team, 'approver'))),
        body: { name: 'approver ci' },
      });
      const me = await stack.http('GET', '/api/v1/me', { key: created.body.data.key });
      expect(created.body.data.createdBy).toBe(approver.memberId);
      expect(me.body.data).toMatchObject({ id: team.accountId, member: { id: approver.memberId, role: 'approver' } });
    },
  );
});

describe('API keys of a team', () => {
  test(
    'when a member who is not an admin revokes another member’s key, ' +
      'then 403; their own and an admin’s revoke work',
    async () => {
      const team = await createTeam(stack, { roles: ['admin', 'analyst', 'approver'] });
      const [admin, analyst, approver] = team.members as TestTeam['members'];
      const keys = (await stack.http('GET', '/api/v1/api-keys', { key: analyst!.key })).body.data as {
        id: string;
        createdBy: string;
      }[];
      const keyOf = (memberId: string) => keys.find((k) => k.createdBy === memberId)?.id as string;

      const refused = await stack.http('DELETE', `/api/v1/api-keys/${keyOf(approver!.memberId)}`, {
        key: analyst!.key,
      });
      expect([refused.status, refused.body.code]).toEqual([403, 'INSUFFICIENT_TEAM_ROLE']);
      expect((await stack.http('GET', '/api/v1/me', { key: approver!.key })).status).toBe(200);

      const own = await stack.http('DELETE', `/api/v1/api-keys/${keyOf(analyst!.memberId)}`, { key: analyst!.key });
      expect(own.status).toBe(200);
      expect((await stack.http('GET', '/api/v1/me', { key: analyst!.key })).status).toBe(401);

      const byAdmin = await stack.http('DELETE', `/api/v1/api-keys/${keyOf(approver!.memberId)}`, { key: admin!.key });
      expect(byAdmin.status).toBe(200);
      expect((await stack.http('GET', '/api/v1/me', { key: approver!.key })).status).toBe(401);
    },
  );
});

describe("Clerk's organization events", () => {
  test(
    'when membership created, updated and deleted arrive, then the member joins, changes role and is refused at ' +
      'once (session and key, with the cache on)',
    async () => {
      // Arrange: the team exists; a new person joins it through Clerk.
      const team = await createTeam(stack, { roles: ['admin'] });
      const clerkUserId = newClerkUserId();
      const token = session(clerkUserId, v2(team, 'admin'));
      const t0 = Date.now();

      // Act / Assert: created
      const created = await deliverClerk(
        membershipEvent('created', { clerkOrgId: team.clerkOrgId, clerkUserId, role: 'org:analyst', updatedAt: t0 }),
      );
      expect(created).toMatchObject({ outcome: 'applied', user_id: team.accountId, detail: 'member saved as analyst' });
      // The stored role holds over the token's (which says admin).
      const me = await stack.http('GET', '/api/v1/me', bearer(token));
      expect(me.body.data).toMatchObject({ id: team.accountId, member: { role: 'analyst' } });
      const madeKey = await stack.http('POST', '/api/v1/api-keys', { ...bearer(token), body: { name: 'member' } });
      const key = madeKey.body.data.key as string;
      expect(await meWithKey(key)).toBe(200);

      // updated: the session cached a minute ago sees the new role on its next request.
      await deliverClerk(
        membershipEvent('updated', {
          clerkOrgId: team.clerkOrgId,
          clerkUserId,
          role: 'org:approver',
          updatedAt: t0 + 1000,
        }),
      );
      const roleSeen = await untilChanged(async () => {
        const r = await stack.http('GET', '/api/v1/me', bearer(token));
        return r.body.data.member.role === 'approver' ? 1 : 0;
      }, 0);
      expect(roleSeen.status).toBe(1);
      expect(roleSeen.ms).toBeLessThan(LISTENER_DELAY_BOUND_MS);

      // deleted: session and key are refused as soon as the event's outbox NOTIFY reaches this api.
      const deleted = await deliverClerk(
        membershipEvent('deleted', {
          clerkOrgId: team.clerkOrgId,
          clerkUserId,
          updatedAt: t0 + 1000,
          timestamp: t0 + 2000,
        }),
      );
      const [bySession, byKey] = await Promise.all([
        untilChanged(() => meWithToken(token), 200),
        untilChanged(() => meWithKey(key), 200),
      ]);
      expect(deleted).toMatchObject({ outcome: 'applied', detail: 'member removed; 1 API keys revoked' });
      expect([bySession.status, byKey.status]).toEqual([401, 401]);
      expect(Math.max(bySession.ms, byKey.ms)).toBeLessThan(LISTENER_DELAY_BOUND_MS);
      // Their own account still works: they left the team, not the service.
      expect(await meWithToken(session(clerkUserId))).toBe(200);
    },
  );

  test('when an older membership event arrives after a newer one, then it changes nothing', async () => {
    // Arrange
    const team = await createTeam(stack, { roles: ['admin'] });
    const clerkUserId = newClerkUserId();
    const t0 = Date.now();
    const newer = membershipEvent('updated', {
      clerkOrgId: team.clerkOrgId,
      clerkUserId,
      role: 'org:approver',
      updatedAt: t0,
    });
    const older = membershipEvent('created', {
      clerkOrgId: team.clerkOrgId,
      clerkUserId,
      role: 'org:admin',
      updatedAt: t0 - 60_000,
    });
    const olderDelete = membershipEvent('deleted', {
      clerkOrgId: team.clerkOrgId,
      clerkUserId,
      updatedAt: t0 - 30_000,
    });

    // Act
    expect(await deliverClerk(newer)).toMatchObject({ outcome: 'applied' });
    const late = await deliverClerk(older);
    const lateDelete = await deliverClerk(olderDelete);

    // Assert
    expect(late).toMatchObject({ outcome: 'ignored', detail: expect.stringContaining('newer change') });
    expect(lateDelete).toMatchObject({ outcome: 'ignored' });
    const me = await stack.http('GET', '/api/v1/me', bearer(session(clerkUserId, v2(team, 'admin'))));
    expect(me.body.data).toMatchObject({ id: team.accountId, member: { role: 'approver' } });
  });

  test(
    'when organization.deleted arrives, then the account is deactivated like a deleted user: keys revoked, ' +
      'sessions refused, monitors stopped',
    async () => {
      // Arrange
      const team = await createTeam(stack, { roles: ['admin', 'analyst'], credits: 10 });
      const [admin, analyst] = team.members as [TestTeam['members'][number], TestTeam['members'][number]];
      const monitor = await stack.http('POST', '/api/v1/monitors', {
        key: admin.key,
        body: { chain: 'ethereum', address: '0x8589427373d6d84e98730d7795d8f6f8731fda16', alert_level: 'HIGH' },
      });
      expect(monitor.status).toBe(201);
      const token = session(analyst.clerkUserId, v2(team, 'analyst'));
      expect(await meWithToken(token)).toBe(200);

      // Act
      const event = await deliverClerk(
        JSON.stringify({
          data: { deleted: true, id: team.clerkOrgId, object: 'organization' },
          object: 'event',
          timestamp: Date.now(),
          type: 'organization.deleted',
        }),
      );

      // Assert
      expect(event).toMatchObject({ outcome: 'applied', user_id: team.accountId });
      expect(event.detail).toContain('organization deactivated; API keys revoked; 1 monitors stopped');
      expect(await meWithKey(admin.key)).toBe(401);
      expect(await meWithToken(token)).toBe(401);
      const rows = await stack.pool.query(
        `SELECT (SELECT status FROM users WHERE id = $1) AS account,
                (SELECT count(*)::int FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL) AS live_keys,
                (SELECT count(*)::int FROM monitors WHERE user_id = $1 AND status <> 'deleted') AS live_monitors`,
        [team.accountId],
      );
      expect(rows.rows[0]).toEqual({ account: 'deactivated', live_keys: 0, live_monitors: 0 });
    },
  );
});

describe('payments that name a person', () => {
  test(
    'when a PayPal subscription names a person who acts in a team, then the team is credited; after they leave ' +
      'it, a new one credits their own account',
    async () => {
      // Arrange: the analyst signed into the team last.
      const team = await createTeam(stack, { roles: ['admin', 'analyst'] });
      const analyst = team.members[1] as TestTeam['members'][number];
      expect(await meWithToken(session(analyst.clerkUserId, v2(team, 'analyst')))).toBe(200);
      const first = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', {
        subscriptionId: `I-${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`,
        clerkUserId: analyst.clerkUserId,
      });

      // Act
      await post(stack.api.url, PAYPAL_ROUTE, first);
      const credited = await processedEvent(stack, 'paypal', first.eventId);
      await removeMember(stack, team.accountId, analyst.memberId);
      const second = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', {
        subscriptionId: `I-${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`,
        clerkUserId: analyst.clerkUserId,
      });
      await post(stack.api.url, PAYPAL_ROUTE, second);
      const own = await processedEvent(stack, 'paypal', second.eventId);

      // Assert
      expect(credited).toMatchObject({ outcome: 'granted', user_id: team.accountId, credits: 100 });
      expect(await balanceOf(stack, team.accountId)).toBe(100);
      expect(own).toMatchObject({ outcome: 'granted', user_id: analyst.memberId, credits: 100 });
      expect(await balanceOf(stack, analyst.memberId)).toBe(100);
    },
  );
});
