import { randomUUID } from 'node:crypto';
import { executionsOf, processedEvent } from '../helpers/billing';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { clerkDelivery, fixture, fixtureJson, FIXTURE_CLERK_USER, post, WEBHOOK_ENV } from '../helpers/webhooks';
import { generateApiKey } from '../../src/identity/api-key-format';

const ROUTE = '/api/webhook/clerk';

/** A Clerk fixture body for another user (the fixture user is shared by the payment tests), optionally edited. */
function clerkBody(name: string, clerkUserId: string, edit: (event: any) => void = () => undefined): string {
  const event = JSON.parse(
    fixture('clerk', `${name}.json`).toString('utf8').split(FIXTURE_CLERK_USER).join(clerkUserId),
  );
  if (name === 'user.deleted') event.data.id = clerkUserId;
  edit(event);
  return JSON.stringify(event);
}

describe('Clerk identity webhook', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: WEBHOOK_ENV });
  });
  afterAll(async () => stack.stop());

  const userRow = async (clerkUserId: string) =>
    (
      await stack.pool.query('SELECT id, email, display_name, status, deleted_at FROM users WHERE clerk_user_id = $1', [
        clerkUserId,
      ])
    ).rows[0];

  test(
    'when user.created, user.updated and user.deleted arrive, then the user is created, ' +
      'updated and deactivated, and its keys stop working',
    async () => {
      // Arrange
      const clerkUserId = `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
      const created = clerkDelivery(clerkBody('user.created', clerkUserId));
      const updated = clerkDelivery(clerkBody('user.updated', clerkUserId, (e) => (e.data.first_name = 'Updated')));
      const deleted = clerkDelivery(clerkBody('user.deleted', clerkUserId));

      // Act / Assert: created
      expect((await post(stack.api.url, ROUTE, created)).status).toBe(200);
      await processedEvent(stack, 'clerk', created.headers['svix-id']!);
      expect(await userRow(clerkUserId)).toMatchObject({
        email: 'example@example.org',
        display_name: 'Example Example',
        status: 'active',
      });
      const user = await userRow(clerkUserId);
      const key = generateApiKey();
      await stack.stores.users.createApiKey(user.id, 'dashboard', key);
      expect((await stack.http('GET', '/api/v1/me', { key })).status).toBe(200);

      // updated
      await post(stack.api.url, ROUTE, updated);
      await processedEvent(stack, 'clerk', updated.headers['svix-id']!);
      expect((await userRow(clerkUserId)).display_name).toBe('Updated');

      // deleted
      await post(stack.api.url, ROUTE, deleted);
      expect(await processedEvent(stack, 'clerk', deleted.headers['svix-id']!)).toMatchObject({
        outcome: 'applied',
        detail: expect.stringContaining('deactivated'),
      });
      expect(await userRow(clerkUserId)).toMatchObject({ status: 'deactivated', deleted_at: expect.any(Date) });
      const refused = await stack.http('GET', '/api/v1/me', { key });
      expect(refused.status).toBe(401);
    },
  );

  test(
    'when an older user.created arrives after user.updated, ' +
      'or anything after user.deleted, then it changes nothing',
    async () => {
      // Arrange
      const clerkUserId = `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
      const updated = clerkDelivery(clerkBody('user.updated', clerkUserId, (e) => (e.data.first_name = 'Newest')));
      const staleCreated = clerkDelivery(clerkBody('user.created', clerkUserId));
      const deleted = clerkDelivery(clerkBody('user.deleted', clerkUserId));
      const lateUpdate = clerkDelivery(
        clerkBody('user.updated', clerkUserId, (e) => (e.data.updated_at = 9_999_999_999_999)),
      );

      // Act
      for (const d of [updated, staleCreated, deleted, lateUpdate]) {
        await post(stack.api.url, ROUTE, d);
        await processedEvent(stack, 'clerk', d.headers['svix-id']!);
      }

      // Assert
      expect(await userRow(clerkUserId)).toMatchObject({ display_name: 'Newest', status: 'deactivated' });
      expect((await processedEvent(stack, 'clerk', staleCreated.headers['svix-id']!)).outcome).toBe('ignored');
      expect((await processedEvent(stack, 'clerk', lateUpdate.headers['svix-id']!)).outcome).toBe('ignored');
    },
  );

  test('when the same delivery (same svix-id) arrives twice, then one workflow runs and both get 200', async () => {
    const clerkUserId = `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    const delivery = clerkDelivery(clerkBody('user.created', clerkUserId));
    const answers = await Promise.all([post(stack.api.url, ROUTE, delivery), post(stack.api.url, ROUTE, delivery)]);
    await processedEvent(stack, 'clerk', delivery.headers['svix-id']!);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await executionsOf(stack, `clerk:${delivery.headers['svix-id']}`)).toBe(1);
  });

  test(
    'when the pretty-printed fixture is re-signed over its raw bytes, ' +
      'then it is accepted (the route never re-serializes)',
    async () => {
      const delivery = clerkDelivery(fixture('clerk', 'user.created.noncanonical.json'));
      const res = await post(stack.api.url, ROUTE, delivery);
      expect(res.status).toBe(200);
    },
  );

  test.each([
    [
      'the fixture as recorded (its timestamp is years old: a replay)',
      () => ({
        body: fixture('clerk', 'user.created.json'),
        headers: fixtureJson('clerk', 'user.created.headers.json'),
      }),
    ],
    [
      'a signature by another secret',
      () => {
        const d = clerkDelivery('{"type":"user.created","data":{"id":"user_aaaaaaaaaaaaaaaa"}}');
        return { ...d, headers: { ...d.headers, 'svix-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' } };
      },
    ],
    ['no signature headers', () => ({ body: Buffer.from('{}'), headers: { 'content-type': 'application/json' } })],
    [
      'a body changed after signing',
      () => {
        const d = clerkDelivery('{"type":"user.created","data":{"id":"user_aaaaaaaaaaaaaaaa"}}');
        return { ...d, body: Buffer.from('{"type":"user.deleted","data":{"id":"user_aaaaaaaaaaaaaaaa"}}') };
      },
    ],
  ])('when a delivery has %s, then it is refused with 401 at once', async (_label, make) => {
    const res = await post(stack.api.url, ROUTE, make());
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: 'Unauthorized', code: 'INVALID_SIGNATURE' });
  });

  test('when the signature is sent as X-Clerk-Webhook-Signature (the contract name), then it is accepted', async () => {
    const d = clerkDelivery(clerkBody('user.created', `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`));
    const { 'svix-signature': signature, ...rest } = d.headers;
    const res = await post(stack.api.url, ROUTE, {
      body: d.body,
      headers: { ...rest, 'x-clerk-webhook-signature': signature! },
    });
    expect(res.status).toBe(200);
  });
});
