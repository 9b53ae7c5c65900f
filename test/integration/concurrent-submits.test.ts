import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';

describe('concurrent submits cannot overdraw an account', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => stack.stop());

  test(
    'when twenty jobs are submitted at once by an account that pays for five, then five complete, ' +
      'fifteen get 402 and the balance ends at zero',
    async () => {
      const user = await stack.createUser({ credits: 5 });
      const body = { chain: 'bitcoin', address: '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa' };

      const responses = await Promise.all(
        Array.from({ length: 20 }, () => stack.http('POST', '/api/v1/kyt/job', { key: user.key, body })),
      );

      const accepted = responses.filter((r) => r.status === 202);
      const refused = responses.filter((r) => r.status === 402);
      expect(accepted).toHaveLength(5);
      expect(refused).toHaveLength(15);
      for (const r of refused) expect(r.body.code).toBe('INSUFFICIENT_CREDITS');

      const finals = await Promise.all(accepted.map((r) => pollUntilDone(stack, user.key, r.body.data.request_id)));
      expect(finals.map((f) => f.data.status)).toEqual(Array(5).fill('completed'));
      expect(await stack.stores.credits.balance(user.id)).toEqual({ balance: 0, reserved: 0, available: 0, debt: 0 });
      const { rows } = await stack.pool.query(
        `SELECT count(*)::int AS n, sum(amount)::int AS total FROM credit_transactions ` +
          `WHERE user_id = $1 AND kind = 'consume'`,
        [user.id],
      );
      expect(rows[0]).toEqual({ n: 5, total: 5 });
    },
  );
});

describe('more concurrent submits than the pool has connections', () => {
  let small: TestStack;
  beforeAll(async () => {
    // No worker: the submits alone are measured, on a pool of 3 connections.
    small = await startTestStack({ worker: false, env: { DATABASE_POOL_SIZE: '3' } });
  });
  afterAll(async () => small?.stop());

  test(
    'when 12 submits arrive at once on a pool of 3, then every one is held and queued (a hold never waits for a ' +
      'second connection while holding its first)',
    async () => {
      const user = await small.createUser({ credits: 12 });
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          small.http('POST', '/api/v1/kyt/job', {
            key: user.key,
            body: { chain: 'bitcoin', address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h' },
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(202));
      expect(await small.stores.credits.balance(user.id)).toMatchObject({ balance: 12, reserved: 12, available: 0 });
    },
  );
});
