/**
 * A user deleted through the identity webhook gives up its work (issue 28, item 3): the Clerk user.deleted transaction
 * deactivates the user, revokes its keys, marks its monitors deleted and releases its credit holds; then the clerk
 * workflow sends `stop` to each monitor's workflow, which ends.
 */
import { randomUUID } from 'node:crypto';
import { processedEvent } from '../helpers/billing';
import { newClerkUserId } from '../helpers/paypal-plan-change-scenario';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { clerkDelivery, fixture, FIXTURE_CLERK_USER, post, WEBHOOK_ENV } from '../helpers/webhooks';

const ROUTE = '/api/webhook/clerk';
const ADDRESSES = ['0x8589427373d6d84e98730d7795d8f6f8731fda16', '0x7f367cc41522ce07553e823bf3be79a889debe1b'];

async function until<T>(what: string, read: () => Promise<T | null | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const deletedBody = (clerkUserId: string): string => {
  const event = JSON.parse(
    fixture('clerk', 'user.deleted.json').toString('utf8').split(FIXTURE_CLERK_USER).join(clerkUserId),
  );
  event.data.id = clerkUserId;
  return JSON.stringify(event);
};

describe('a user deleted through the Clerk webhook', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: WEBHOOK_ENV });
  });
  afterAll(async () => stack.stop());

  test(
    'when a signed user.deleted arrives for a user with credits, two monitors and a running job’s hold, then ' +
      'both monitor rows are deleted, their workflows have completed, no hold of the user remains and reserved is 0',
    async () => {
      // Arrange: two monitors screened once (their workflows now wait for the next re-screen), and a job's hold.
      const clerkUserId = newClerkUserId();
      const user = await stack.createUser({ clerkUserId, credits: 20 });
      const monitorIds: string[] = [];
      for (const address of ADDRESSES) {
        const created = await stack.http('POST', '/api/v1/monitors', {
          key: user.key,
          body: { chain: 'ethereum', address, alert_level: 'HIGH' },
        });
        expect(created.status).toBe(201);
        monitorIds.push(created.body.data.id);
      }
      for (const id of monitorIds)
        await until(`monitor ${id} screened`, async () => {
          const r = await stack.http('GET', `/api/v1/monitors/${id}`, { key: user.key });
          return r.body.data?.last_result ? true : null;
        });
      const jobHold = `job-${randomUUID()}`;
      expect(await stack.stores.credits.reserve(user.id, jobHold, 3, 3)).toBe(3);
      const before = await stack.stores.credits.balance(user.id);
      expect(before.reserved).toBeGreaterThanOrEqual(3);

      // Act
      const deleted = clerkDelivery(deletedBody(clerkUserId));
      expect((await post(stack.api.url, ROUTE, deleted)).status).toBe(200);
      const event = await processedEvent(stack, 'clerk', deleted.headers['svix-id'] as string);

      // Assert: one transaction did it all, and says so.
      expect(event).toMatchObject({ outcome: 'applied', user_id: user.id });
      expect(event.detail).toContain('user deactivated; API keys revoked; 2 monitors stopped');
      const monitors = await stack.pool.query(
        'SELECT id, status, deleted_at FROM monitors WHERE user_id = $1 ORDER BY id',
        [user.id],
      );
      expect(monitors.rows).toEqual(
        [...monitorIds].sort().map((id) => ({ id, status: 'deleted', deleted_at: expect.any(Date) })),
      );
      const watched = await stack.pool.query(
        'SELECT count(*)::int AS n FROM monitor_watch WHERE monitor_id = ANY($1)',
        [monitorIds],
      );
      expect(watched.rows[0].n).toBe(0);
      const holds = await stack.pool.query('SELECT hold_key FROM credit_holds WHERE user_id = $1', [user.id]);
      expect(holds.rows).toEqual([]);
      const after = await stack.stores.credits.balance(user.id);
      expect(after).toMatchObject({ reserved: 0, balance: before.balance, debt: 0 });

      // The monitors' workflows received `stop` and ended.
      for (const id of monitorIds) {
        const status = await until(`monitor:${id} completed`, async () => {
          const d = await stack.temporal.workflow.getHandle(`monitor:${id}`).describe();
          return d.status.name === 'RUNNING' ? null : d.status.name;
        });
        expect(status).toBe('COMPLETED');
      }
      expect((await stack.http('GET', '/api/v1/me', { key: user.key })).status).toBe(401);
    },
  );

  test(
    'when a second user.deleted for the same user arrives (another svix-id), then it changes nothing more: ' +
      'no monitor to stop, no hold to release',
    async () => {
      const clerkUserId = newClerkUserId();
      const user = await stack.createUser({ clerkUserId, credits: 5 });
      const first = clerkDelivery(deletedBody(clerkUserId));
      await post(stack.api.url, ROUTE, first);
      expect(await processedEvent(stack, 'clerk', first.headers['svix-id'] as string)).toMatchObject({
        outcome: 'applied',
      });

      const second = clerkDelivery(deletedBody(clerkUserId));
      await post(stack.api.url, ROUTE, second);

      expect(await processedEvent(stack, 'clerk', second.headers['svix-id'] as string)).toMatchObject({
        outcome: 'ignored',
        detail: 'user was already deactivated',
      });
      expect(await stack.stores.credits.balance(user.id)).toMatchObject({ balance: 5, reserved: 0 });
    },
  );
});
