import { randomUUID } from 'node:crypto';
import { applyPayPalEvent, type PayPalBillingDeps } from '../../src/billing/paypal/apply-paypal-event';
import { parsePayPalEvent } from '../../src/billing/paypal/paypal-event';
import { processedEvent } from '../helpers/billing';
import { seeded, shuffle } from '../helpers/paypal-credit-rules-model';
import {
  DEFAULT_OPTIONS,
  newClerkUserId,
  planChangeScenario,
  STEPS,
  type Scenario,
  type ScenarioOptions,
  type Step,
} from '../helpers/paypal-plan-change-scenario';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { post, signPayPal, testPayPalVerifier, WEBHOOK_ENV } from '../helpers/webhooks';

/**
 * Credits granted minus credits taken back equals credits paid for (docs/credits.md, "credit rules"), on real
 * Postgres: the event transactions of apply-paypal-event.ts driven through sampled delivery orders with redeliveries
 * and concurrent bursts, then through the webhook route and Temporal. Every order, as pure logic:
 * test/unit/paypal-paid-for-credits.test.ts.
 */

const ROUTE = '/api/v1/billing/paypal/webhook';

describe('PayPal credits are what was paid for, whatever the delivery order', () => {
  let stack: TestStack;
  let deps: PayPalBillingDeps;
  beforeAll(async () => {
    stack = await startTestStack({
      env: { ...WEBHOOK_ENV, PAYPAL_UNKNOWN_SUBSCRIPTION_RETRY_MS: '200' },
      verifiers: { paypalVerifier: testPayPalVerifier() },
    });
    deps = { pool: stack.pool, ...stack.stores };
  });
  afterAll(async () => stack.stop());

  /** A signed-in user (the dashboard provisions one before any checkout) and their subscriber's life. */
  async function subscriberScenario(options: ScenarioOptions = DEFAULT_OPTIONS) {
    const scenario = planChangeScenario(options);
    const user = await stack.createUser({ clerkUserId: scenario.clerkUserId });
    return { scenario, user };
  }

  async function ledgerOf(userId: string) {
    const { rows } = await stack.pool.query<{ granted: string; revoked: string }>(
      `SELECT coalesce(sum(amount) FILTER (WHERE kind = 'grant'), 0) AS granted,
              coalesce(sum(amount) FILTER (WHERE kind = 'revoke'), 0) AS revoked
       FROM credit_transactions WHERE user_id = $1 AND source = 'paypal'`,
      [userId],
    );
    const account = await stack.stores.credits.balance(userId);
    return {
      kept: Number(rows[0]?.granted) - Number(rows[0]?.revoked),
      balanceMinusDebt: account.balance - account.debt,
      debt: account.debt,
    };
  }

  /** One event's transaction, as the activity runs it; "not known yet" is reported for a retry, like Temporal's. */
  async function applyOnce(body: Record<string, any>): Promise<'done' | 'retry'> {
    try {
      await applyPayPalEvent(deps, parsePayPalEvent(body), body);
      return 'done';
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'SUBSCRIPTION_NOT_KNOWN_YET' || code === 'PAYMENT_NOT_KNOWN_YET') return 'retry';
      throw err;
    }
  }

  describe('in the database, over sampled delivery orders', () => {
    const CONFIGS: ScenarioOptions[] = [
      DEFAULT_OPTIONS,
      { ...DEFAULT_OPTIONS, refund: { of: 'SALE 2', total: '5.00' }, dispute: { of: 'SALE 1', total: null } },
      { ...DEFAULT_OPTIONS, refund: { of: 'SALE 2', total: '-19.99' }, outcome: 'RESOLVED_BUYER_FAVOUR' },
      {
        ...DEFAULT_OPTIONS,
        refund: { of: 'SALE 1', total: '3.33' },
        dispute: { of: 'SALE 1', total: '6.66' },
        outcome: 'DENIED',
      },
    ];
    const ORDERS = 48;

    test(`When the subscriber's events (the 8, sometimes with the dispute's resolution) arrive in ${ORDERS} random ` +
      'orders, in concurrent bursts of up to three, with redeliveries of the same event and of the same sale, ' +
      'refund or dispute under other event ids, and 50 credits spent on the way, then each time credits granted ' +
      'minus taken back equals credits paid for, and balance minus debt equals that minus what was spent', async () => {
      const random = seeded(2020);
      const failures: string[] = [];
      for (let run = 0; run < ORDERS; run += 1) {
        // Arrange
        const options = CONFIGS[run % CONFIGS.length] as ScenarioOptions;
        const { scenario, user } = await subscriberScenario(options);
        const steps: Step[] = random() < 0.5 ? [...STEPS, 'DISPUTE RESOLVED'] : [...STEPS];
        const deliveries: Record<string, any>[] = [];
        const eventIds = new Set<string>();
        for (const step of steps) {
          const body = scenario.body(step);
          eventIds.add(body.id);
          deliveries.push(body);
          if (random() < 0.3) deliveries.push(body);
          if (random() < 0.25) {
            const again = scenario.body(step);
            eventIds.add(again.id);
            deliveries.push(again);
          }
        }
        let queue = shuffle(deliveries, random);
        let spent = 0;

        // Act
        let waiting: Record<string, any>[] = [];
        while (queue.length > 0) {
          const burst = queue.slice(0, 1 + Math.floor(random() * 3));
          queue = queue.slice(burst.length);
          const results = await Promise.all(burst.map(applyOnce));
          waiting.push(...burst.filter((_, i) => results[i] === 'retry'));
          for (let progress = waiting.length > 0; progress; ) {
            const retried = await Promise.all(waiting.map(applyOnce));
            const still = waiting.filter((_, i) => retried[i] === 'retry');
            progress = still.length > 0 && still.length < waiting.length;
            waiting = still;
          }
          if (spent === 0 && (await stack.stores.credits.balance(user.id)).available >= 50) {
            await stack.stores.credits.consume({
              userId: user.id,
              amount: 50,
              idempotencyKey: `spend:${randomUUID()}`,
              holdKey: null,
              reason: 'spent between deliveries',
            });
            spent = 50;
          }
        }

        // Assert
        const paidFor = scenario.paidFor(steps);
        const ledger = await ledgerOf(user.id);
        const recorded = await stack.pool.query(
          `SELECT count(*)::int AS n FROM webhook_events WHERE provider = 'paypal' AND event_id = ANY($1)`,
          [[...eventIds]],
        );
        const [subscription] = await stack.stores.subscriptions.listForUser(user.id);
        const outcome = {
          waiting: waiting.length,
          kept: ledger.kept,
          balanceMinusDebt: ledger.balanceMinusDebt,
          recorded: recorded.rows[0].n,
          status: subscription?.status,
          advance: subscription?.advanceUnsettled,
        };
        const wanted = {
          waiting: 0,
          kept: paidFor,
          balanceMinusDebt: paidFor - spent,
          recorded: eventIds.size,
          status: 'CANCELLED',
          advance: 0,
        };
        if (JSON.stringify(outcome) !== JSON.stringify(wanted))
          failures.push(`${steps.length} steps ${JSON.stringify(options)}: ${JSON.stringify(outcome)}`);
      }
      expect(failures).toEqual([]);
    }, 240_000);
  });

  describe('through the webhook route and Temporal', () => {
    const deliver = async (scenario: Scenario, step: Step) => {
      const body = scenario.body(step);
      const res = await post(stack.api.url, ROUTE, signPayPal(JSON.stringify(body)));
      expect(res.status).toBe(200);
      return processedEvent(stack, 'paypal', body.id, 30_000);
    };

    test('When basic is activated and paid, upgraded to pro and cancelled before any pro sale, then the subscriber ' +
      'keeps the 100 credits of the one $9.99 payment (the upgrade grants nothing), and refunding that sale ' +
      'takes them all back: 0, not 400', async () => {
      // Arrange
      const { scenario, user } = await subscriberScenario();

      // Act
      const activated = await deliver(scenario, 'ACTIVATED');
      const sale = await deliver(scenario, 'SALE 1');
      const upgraded = await deliver(scenario, 'UPDATED up');
      const afterUpgrade = await ledgerOf(user.id);
      const cancelled = await deliver(scenario, 'CANCELLED');
      const refunded = await deliver(scenario, 'REFUNDED');

      // Assert
      expect([activated, sale, upgraded, cancelled, refunded].map((e) => [e.outcome, Number(e.credits)])).toEqual([
        ['granted', 100],
        ['logged', 0],
        ['applied', 0],
        ['applied', 0],
        ['revoked', -100],
      ]);
      expect(afterUpgrade.kept).toBe(100);
      expect(await ledgerOf(user.id)).toEqual({ kept: 0, balanceMinusDebt: 0, debt: 0 });
    }, 60_000);

    test.each([
      ['won by the merchant', 'RESOLVED_SELLER_FAVOUR', 500],
      ['lost to the buyer', 'RESOLVED_BUYER_FAVOUR', 0],
    ])(
      'When all nine events (the dispute %s: %s) are posted at once, each three times, with the refund and the ' +
        'dispute also under second event ids, then every post gets 200, each event is applied, and the credits ' +
        'kept are the %i paid for (sale 1 refunded; sale 2 kept or lost), the dispute moving them at most once',
      async (_name, outcome, kept) => {
        // Arrange
        const { scenario, user } = await subscriberScenario({ ...DEFAULT_OPTIONS, outcome });
        const steps: Step[] = [...STEPS, 'DISPUTE RESOLVED'];
        const bodies = steps.map((s) => scenario.body(s));
        const seconds = (['REFUNDED', 'DISPUTE', 'DISPUTE RESOLVED'] as const).map((s) => scenario.body(s));
        const posts = [...bodies, ...bodies, ...bodies, ...seconds].map((b) => signPayPal(JSON.stringify(b)));

        // Act
        const answers = await Promise.all(posts.map((p) => post(stack.api.url, ROUTE, p)));
        const events = await Promise.all(
          [...bodies, ...seconds].map((b) => processedEvent(stack, 'paypal', b.id, 60_000)),
        );

        // Assert
        expect(answers.map((a) => a.status)).toEqual(Array(posts.length).fill(200));
        expect(events.every((e) => e !== null)).toBe(true);
        expect(scenario.paidFor(steps)).toBe(kept);
        expect(await ledgerOf(user.id)).toEqual({ kept, balanceMinusDebt: kept, debt: 0 });
        const dispute = await stack.pool.query(
          `SELECT kind, amount FROM credit_transactions WHERE user_id = $1 AND metadata ->> 'disputeId' = $2
           ORDER BY created_at`,
          [user.id, scenario.disputeId],
        );
        // Taken back once at most; if the merchant won, reinstated as often as taken back (once, or never when the
        // resolution came first). Sorted: created_at is each transaction's start, and the two events' transactions
        // may start in one order and take the sale's lock in the other.
        const moves = dispute.rows.map((r) => `${r.kind} ${r.amount}`).sort();
        expect(kept === 500 ? [[], ['grant 500', 'revoke 500']] : [['revoke 500']]).toContainEqual(moves);
      },
      120_000,
    );

    test('When a disputed sale was spent, then the dispute takes its credits back into debt; when twenty deliveries ' +
      'of its resolution in the merchant favour arrive at once (ten redeliveries, ten other event ids), then ' +
      'the credits are reinstated exactly once and repay the debt first', async () => {
      // Arrange: ACTIVATED + sale 1 (100 credits), 80 spent, the sale disputed.
      const { scenario, user } = await subscriberScenario({
        ...DEFAULT_OPTIONS,
        dispute: { of: 'SALE 1', total: '9.99' },
      });
      await deliver(scenario, 'ACTIVATED');
      await deliver(scenario, 'SALE 1');
      await stack.stores.credits.consume({
        userId: user.id,
        amount: 80,
        idempotencyKey: `spend:${randomUUID()}`,
        holdKey: null,
        reason: 'spent before the dispute',
      });
      const opened = await deliver(scenario, 'DISPUTE');
      const inDebt = await stack.stores.credits.balance(user.id);
      const resolution = scenario.body('DISPUTE RESOLVED');
      const others = Array.from({ length: 10 }, () => scenario.body('DISPUTE RESOLVED'));

      // Act
      const answers = await Promise.all([
        ...Array.from({ length: 10 }, () => post(stack.api.url, ROUTE, signPayPal(JSON.stringify(resolution)))),
        ...others.map((o) => post(stack.api.url, ROUTE, signPayPal(JSON.stringify(o)))),
      ]);
      const results = await Promise.all(
        [resolution, ...others].map((b) => processedEvent(stack, 'paypal', b.id, 30_000)),
      );

      // Assert
      expect(opened).toMatchObject({ outcome: 'revoked', credits: -100 });
      expect(inDebt).toMatchObject({ balance: 0, debt: 80 });
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(results.filter((r) => r.outcome === 'granted').map((r) => Number(r.credits))).toEqual([100]);
      expect(results.filter((r) => r.outcome !== 'granted').map((r) => r.outcome)).toEqual(Array(10).fill('logged'));
      expect(await stack.stores.credits.balance(user.id)).toEqual({ balance: 20, reserved: 0, available: 20, debt: 0 });
      const reinstated = await stack.pool.query(
        `SELECT amount, metadata FROM credit_transactions WHERE user_id = $1 AND metadata ->> 'disputeId' = $2
           ORDER BY created_at`,
        [user.id, scenario.disputeId],
      );
      expect(reinstated.rows.map((r) => [r.amount, r.metadata.status])).toEqual([
        [100, 'open'],
        [100, 'won'],
      ]);
      expect(reinstated.rows[1].metadata.debtRepaid).toBe(80);
    }, 60_000);
  });

  describe('custom_id attaches a payment only to an existing user', () => {
    test('When a subscription names a custom_id no user has, then nothing is created or granted: the event is ' +
      'recorded as rejected, and its sale is rejected at once instead of waiting for a subscription that ' +
      'will never be stored', async () => {
      // Arrange
      const scenario = planChangeScenario(DEFAULT_OPTIONS, newClerkUserId());
      const activated = scenario.body('ACTIVATED');
      const sale = scenario.body('SALE 1');

      // Act
      const answers = [
        await post(stack.api.url, ROUTE, signPayPal(JSON.stringify(activated))),
        await post(stack.api.url, ROUTE, signPayPal(JSON.stringify(sale))),
      ];
      const events = [
        await processedEvent(stack, 'paypal', activated.id, 30_000),
        await processedEvent(stack, 'paypal', sale.id, 30_000),
      ];

      // Assert
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect(events.map((e) => [e.outcome, e.user_id, Number(e.credits)])).toEqual([
        ['rejected', null, 0],
        ['rejected', null, 0],
      ]);
      expect(events[0].detail).toContain('names no user');
      expect(await stack.stores.users.findByAnyId(scenario.clerkUserId)).toBeNull();
      const stored = await stack.pool.query('SELECT count(*)::int AS n FROM subscriptions WHERE subscription_id = $1', [
        scenario.subscriptionId,
      ]);
      expect(stored.rows[0].n).toBe(0);
    }, 60_000);
  });
});
