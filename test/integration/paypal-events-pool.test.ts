import { applyPayPalEvent } from '../../src/billing/paypal/apply-paypal-event';
import { parsePayPalEvent } from '../../src/billing/paypal/paypal-event';
import { createPool } from '../../src/platform/db/pool';
import { planChangeScenario } from '../helpers/paypal-plan-change-scenario';
import { createStores } from '../helpers/stores';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { WEBHOOK_ENV } from '../helpers/webhooks';

/** As many events at once as the pool has connections, and more: the worker's activity slots are the pool's size. */
const POOL_SIZE = 2;
const EVENTS = 6;

/**
 * Every connection of the pool held by an event's transaction at once must not stall them: each event reads the user
 * it names inside its own transaction. It once asked the pool for a second connection there, so with every
 * connection held by such a transaction the events waited for each other until the pool's connect timeout failed
 * them (found by P4 in docs/benchmarks.md: PayPal activities failing after 5 s of "timeout exceeded when trying to
 * connect").
 */
describe('PayPal events on a pool that their transactions fill', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ env: WEBHOOK_ENV });
  });
  afterAll(async () => stack.stop());

  const title = `when ${EVENTS} subscriptions activate at once on a pool of ${POOL_SIZE}, every one applies, promptly`;
  test(title, async () => {
    const pool = createPool(stack.config.DATABASE_URL as string, POOL_SIZE, { connectMs: 3_000, statementMs: 10_000 });
    try {
      const deps = { pool, ...createStores(pool) };
      const scenarios = Array.from({ length: EVENTS }, () => planChangeScenario());
      for (const s of scenarios) await stack.createUser({ clerkUserId: s.clerkUserId });
      const bodies = scenarios.map((s) => s.body('ACTIVATED'));

      const started = Date.now();
      const outcomes = await Promise.allSettled(bodies.map((b) => applyPayPalEvent(deps, parsePayPalEvent(b), b)));

      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
      // Far below the connect timeout: nothing waited for a connection another transaction of its own kind held.
      expect(Date.now() - started).toBeLessThan(3_000);
      const { rows } = await stack.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM subscriptions WHERE provider = 'paypal' AND subscription_id = ANY($1)`,
        [scenarios.map((s) => s.subscriptionId)],
      );
      expect(rows).toEqual([{ n: EVENTS }]);
    } finally {
      await pool.end();
    }
  });
});
