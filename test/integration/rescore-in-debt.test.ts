/**
 * A rescore is paid work like a job: an account that owes credits taken back by a refund or reversal after they
 * were spent is refused (402 CREDITS_IN_DEBT, the shape a job submit answers) even with credits left available,
 * nothing is rescored or charged; once a payment repays the debt, the same rescore goes through.
 */
import { randomUUID } from 'node:crypto';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';

// Reference-data-only bitcoin KYA (no chain node in the test stack): completes in milliseconds, costs 1 credit.
const TARGET = '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h';

describe('rescore of an account in debt', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack?.stop());

  test(
    'when the account owes credits, then a rescore is 402 CREDITS_IN_DEBT and costs nothing, even with credits ' +
      'available; once a payment repays the debt, the rescore is made and charged once',
    async () => {
      const user = await stack.createUser({ credits: 3 });
      const submit = await stack.http('POST', '/api/v1/kyt/job', {
        key: user.key,
        body: { chain: 'bitcoin', address: TARGET },
      });
      expect(submit.status).toBe(202);
      const requestId = submit.body.data.request_id as string;
      expect((await pollUntilDone(stack, user.key, requestId)).data).toMatchObject({ status: 'completed' });

      // A refund of 4 while another job held the 2 left: nothing taken from the balance, 4 owed; that job then
      // failed and its hold came back, so 2 credits are available while the account owes 4.
      const holdKey = randomUUID();
      expect(await stack.stores.credits.reserve(user.id, holdKey, 1, 2)).toBe(2);
      await stack.stores.credits.revoke({
        userId: user.id,
        amount: 4,
        idempotencyKey: `refund-${randomUUID()}`,
        reason: 'test refund',
        source: 'test',
      });
      await stack.stores.credits.releaseHold(holdKey);
      expect(await stack.stores.credits.balance(user.id)).toEqual({ balance: 2, reserved: 0, available: 2, debt: 4 });

      const rescore = () => stack.http('POST', `/api/v1/kyt/job/${requestId}/rescore`, { key: user.key, body: {} });
      const refused = await rescore();
      expect(refused.status).toBe(402);
      expect(refused.body).toEqual({
        success: false,
        error: expect.stringMatching(/owes 4 credits/),
        code: 'CREDITS_IN_DEBT',
        required: 1,
        available: 2,
        debt: 4,
      });
      const rescores = async () =>
        (await stack.pool.query('SELECT count(*)::int AS n FROM job_rescores WHERE request_id = $1', [requestId]))
          .rows[0].n;
      expect(await rescores()).toBe(0);
      expect(await stack.stores.credits.balance(user.id)).toEqual({ balance: 2, reserved: 0, available: 2, debt: 4 });

      await stack.stores.credits.grant({
        userId: user.id,
        amount: 10,
        idempotencyKey: `payment-${randomUUID()}`,
        reason: 'payment',
        source: 'test',
      });
      const made = await rescore();
      expect([made.status, made.body.data?.credits_charged]).toEqual([200, 1]);
      expect(await rescores()).toBe(1);
      expect(await stack.stores.credits.balance(user.id)).toEqual({ balance: 7, reserved: 0, available: 7, debt: 0 });
    },
  );
});
