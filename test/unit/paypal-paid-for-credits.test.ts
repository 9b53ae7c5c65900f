import { type DisputeState, foldDispute, resolvedStatus } from '../../src/billing/dispute-state';
import { parsePayPalEvent, type PayPalEvent } from '../../src/billing/paypal/paypal-event';
import { creditsForSale } from '../../src/billing/paypal/sale-credits';
import { activationAdvance, creditForSale } from '../../src/billing/subscription-state';
import { deliver, type Ledger, PRICES, permutations, seeded, shuffle } from '../helpers/paypal-credit-rules-model';
import {
  DEFAULT_OPTIONS,
  PLANS,
  planChangeScenario,
  STEPS,
  type Scenario,
  type ScenarioOptions,
  type Step,
} from '../helpers/paypal-plan-change-scenario';

/**
 * The credit rules as pure logic, composed the way apply-paypal-event.ts, apply-refund.ts and
 * apply-paypal-dispute.ts compose them around the database, driven through every delivery order of a subscriber's
 * life: activated on basic, sale 1, upgraded to pro, sale 2 at the pro price, downgraded, cancelled, one sale
 * refunded, one disputed (and resolved). Whatever the order, credits granted minus credits taken back equals the
 * credits paid for, and at every moment the account holds what its recorded sales paid for plus at most the one
 * activation advance, never a plan change's credits before their sale. The same rules on real Postgres and through
 * the webhook route: test/integration/paypal-paid-for-credits.test.ts.
 */

const eventsOf = (scenario: Scenario, steps: readonly Step[]): Map<Step, PayPalEvent> =>
  new Map(steps.map((s) => [s, parsePayPalEvent(scenario.body(s))]));

/**
 * At every moment: held = the rules' view, and the only credits not paid by a recorded sale are one advance, at most
 * what the activation's payment bought less what the sales recorded since have settled of it.
 * (Plain checks, not expect(): this runs millions of times.)
 */
const aheadAtMost =
  (maxAdvance: number) =>
  (ledger: Ledger): void => {
    const held = ledger.granted - ledger.takenBack;
    const advance = ledger.subscription?.advanceUnsettled ?? 0;
    let recorded = 0;
    for (const p of ledger.payments.values()) recorded += p.credits;
    if (held !== ledger.heldByRule() || advance > Math.max(0, maxAdvance - recorded))
      throw new Error(`holds ${held}: ${ledger.heldByRule()} by the rules, advance ${advance}`);
  };
/** The scenario's activation pays the basic plan's price: at most its 100 credits are ever advanced. */
const neverAheadOfPayments = aheadAtMost(PLANS.basic.credits);

const CONFIGS: [string, ScenarioOptions][] = [
  ['sale 1 refunded, sale 2 disputed', DEFAULT_OPTIONS],
  [
    'sale 2 refunded in part, sale 1 disputed',
    { ...DEFAULT_OPTIONS, refund: { of: 'SALE 2', total: '5.00' }, dispute: { of: 'SALE 1', total: null } },
  ],
  ['sale 2 refunded and disputed', { ...DEFAULT_OPTIONS, refund: { of: 'SALE 2', total: '-19.99' } }],
  [
    'sale 1 refunded in part and disputed for the rest',
    { ...DEFAULT_OPTIONS, refund: { of: 'SALE 1', total: '3.33' }, dispute: { of: 'SALE 1', total: '6.66' } },
  ],
];

describe('credits granted minus credits taken back equals credits paid for, in every delivery order', () => {
  test.each(CONFIGS)(
    'When the 8 events (ACTIVATED, SALE 1, UPDATED up, SALE 2, UPDATED down, CANCELLED, REFUNDED, DISPUTE) ' +
      'arrive in each of their 40,320 orders (%s), then the credits kept are the credits paid for, and never ' +
      'does the account hold credits no recorded sale paid for beyond the one activation advance',
    (_name, options) => {
      const scenario = planChangeScenario(options);
      const events = eventsOf(scenario, STEPS);
      const expected = scenario.paidFor(STEPS);
      let orders = 0;
      for (const order of permutations(STEPS)) {
        const ledger = deliver(
          order.map((s) => events.get(s) as PayPalEvent),
          neverAheadOfPayments,
        );
        if (ledger.granted - ledger.takenBack !== expected) {
          throw new Error(
            `order ${order.join(' → ')}: kept ${ledger.granted - ledger.takenBack}, paid for ${expected}`,
          );
        }
        orders += 1;
      }
      expect(orders).toBe(40_320);
    },
  );

  test.each([
    ['won (RESOLVED_SELLER_FAVOUR)', 'RESOLVED_SELLER_FAVOUR', 600],
    ['lost (RESOLVED_BUYER_FAVOUR)', 'RESOLVED_BUYER_FAVOUR', 100],
    ['accepted by the merchant (ACCEPTED)', 'ACCEPTED', 100],
    ['cancelled by the buyer (CANCELED_BY_BUYER)', 'CANCELED_BY_BUYER', 600],
  ])(
    'When the dispute is also resolved %s, in every order of the dispute, its sale, the refund and ACTIVATED ' +
      'with the other five events anywhere (2,000 random orders with redeliveries), then a won dispute reinstates ' +
      'the credits exactly once and a lost one keeps them taken back',
    (_name, outcome, kept) => {
      const scenario = planChangeScenario({ ...DEFAULT_OPTIONS, refund: { of: 'SALE 2', total: '0.01' }, outcome });
      const steps: Step[] = [...STEPS, 'DISPUTE RESOLVED'];
      const events = eventsOf(scenario, steps);
      const expected = scenario.paidFor(steps);
      // Sale 1 keeps its 100; sale 2 keeps its 500 (the cent refunded rounds down to 0 credits) or loses them all.
      expect(expected).toBe(kept);
      const core: Step[] = ['ACTIVATED', 'SALE 2', 'REFUNDED', 'DISPUTE', 'DISPUTE RESOLVED'];
      const others = steps.filter((s) => !core.includes(s));
      for (const order of permutations(core)) {
        const ledger = deliver(
          [...order, ...others].map((s) => events.get(s) as PayPalEvent),
          neverAheadOfPayments,
        );
        if (ledger.granted - ledger.takenBack !== expected) throw new Error(`order ${order.join(' → ')}`);
      }
      const random = seeded(42);
      for (let i = 0; i < 2_000; i += 1) {
        // Redeliveries: the same event again, and the same refund / dispute / sale under another event id.
        const deliveries: PayPalEvent[] = [];
        for (const s of steps) {
          deliveries.push(events.get(s) as PayPalEvent);
          if (random() < 0.3) deliveries.push(events.get(s) as PayPalEvent);
          if (random() < 0.3) deliveries.push(parsePayPalEvent(scenario.body(s)));
        }
        const shuffled = shuffle(deliveries, random);
        const ledger = deliver(shuffled, neverAheadOfPayments);
        if (ledger.granted - ledger.takenBack !== expected)
          throw new Error(
            `deliveries ${shuffled.map((e) => e.eventType).join(' → ')}: kept ${ledger.granted - ledger.takenBack}`,
          );
      }
    },
  );
});

describe('a paid trial or setup fee: the activation advances what that payment bought, never the plan', () => {
  /** ACTIVATED reporting `lastPayment`, the sale of it, the first full cycle, CANCELLED, and a refund of the fee. */
  function trialEvents(lastPayment: string): Map<string, PayPalEvent> {
    const scenario = planChangeScenario();
    const activated = scenario.body('ACTIVATED');
    activated.resource.billing_info.last_payment.amount.value = lastPayment;
    const fee = scenario.body('SALE 1');
    fee.resource.id = 'TRIAL-SALE-1';
    fee.resource.amount.total = lastPayment;
    const refund = scenario.body('REFUNDED');
    refund.resource.sale_id = 'TRIAL-SALE-1';
    refund.resource.amount.total = lastPayment;
    const bodies: Record<string, Record<string, any>> = {
      ACTIVATED: activated,
      'FEE SALE': fee,
      'CYCLE SALE': scenario.body('SALE 1'),
      CANCELLED: scenario.body('CANCELLED'),
      'FEE REFUNDED': refund,
    };
    return new Map(Object.entries(bodies).map(([step, body]) => [step, parsePayPalEvent(body)]));
  }

  test.each([
    // $1.00 and $5.00 buy at the best rate a plan sells (pro: 500 for $19.99): 25 and 125 credits.
    ['a $1.00 trial', '1.00', 25],
    ['a $5.00 setup fee', '5.00', 125],
  ])(
    'When %s (%s) is activated, paid, followed by the first cycle, cancelled and the fee refunded, in each of the ' +
      '120 orders, then ACTIVATED alone advances %i credits, not the plan’s 100, at most that is ever ahead of the ' +
      'recorded sales, and the credits kept are the cycle’s 100',
    (_name, lastPayment, feeCredits) => {
      const events = trialEvents(lastPayment);
      const alone = deliver([events.get('ACTIVATED') as PayPalEvent]);
      expect(alone.granted).toBe(feeCredits);
      let orders = 0;
      for (const order of permutations([...events.keys()])) {
        const ledger = deliver(
          order.map((s) => events.get(s) as PayPalEvent),
          aheadAtMost(feeCredits),
        );
        if (ledger.granted - ledger.takenBack !== PLANS.basic.credits)
          throw new Error(`order ${order.join(' → ')}: kept ${ledger.granted - ledger.takenBack}`);
        orders += 1;
      }
      expect(orders).toBe(120);
    },
  );

  test('When a $0 trial is activated, then it advances nothing', () => {
    const scenario = planChangeScenario();
    const activated = scenario.body('ACTIVATED');
    activated.resource.billing_info.last_payment.amount.value = '0.00';
    expect(deliver([parsePayPalEvent(activated)]).granted).toBe(0);
  });
});

describe('the rules, one by one', () => {
  test(
    'When basic is activated and paid, upgraded to pro and cancelled before any pro sale, then the subscriber ' +
      'has the 100 credits of the one $9.99 payment, and refunding that sale leaves 0 (not 500, then 400)',
    () => {
      const scenario = planChangeScenario();
      const events = eventsOf(scenario, STEPS);
      const order: Step[] = ['ACTIVATED', 'SALE 1', 'UPDATED up', 'CANCELLED'];
      const ledger = deliver(order.map((s) => events.get(s) as PayPalEvent));
      expect(ledger.granted - ledger.takenBack).toBe(100);
      ledger.apply(events.get('REFUNDED') as PayPalEvent);
      expect(ledger.granted - ledger.takenBack).toBe(0);
    },
  );

  test('When ACTIVATED reports no payment (a free trial), then it advances nothing: the sale grants', () => {
    const stored = { salesCredited: 0, advanceUnsettled: 0 };
    expect(
      activationAdvance(stored, 'BILLING.SUBSCRIPTION.ACTIVATED', { status: 'ACTIVE', lastPaymentAt: null }, 100),
    ).toBe(0);
    const paid = { status: 'ACTIVE', lastPaymentAt: '2026-10-01T09:00:01Z' };
    expect(activationAdvance(stored, 'BILLING.SUBSCRIPTION.ACTIVATED', paid, 100)).toBe(100);
    expect(activationAdvance(stored, 'BILLING.SUBSCRIPTION.UPDATED', paid, 500)).toBe(0);
    expect(
      activationAdvance({ salesCredited: 1, advanceUnsettled: 0 }, 'BILLING.SUBSCRIPTION.ACTIVATED', paid, 100),
    ).toBe(0);
  });

  test('When sales follow an advance, then they settle it and grant only what they paid for beyond it', () => {
    expect(creditForSale({ salesCredited: 0, advanceUnsettled: 100 }, 100, true)).toEqual({
      cycle: 1,
      grant: 0,
      salesCredited: 1,
      advanceUnsettled: 0,
    });
    expect(creditForSale({ salesCredited: 0, advanceUnsettled: 500 }, 100, true)).toEqual({
      cycle: 1,
      grant: 0,
      salesCredited: 1,
      advanceUnsettled: 400,
    });
    expect(creditForSale({ salesCredited: 1, advanceUnsettled: 0 }, 500, true)).toEqual({
      cycle: 2,
      grant: 500,
      salesCredited: 2,
      advanceUnsettled: 0,
    });
    expect(creditForSale({ salesCredited: 2, advanceUnsettled: 0 }, 125, false)).toMatchObject({
      cycle: null,
      grant: 125,
    });
  });

  test.each([
    [999, 'basic', 100, true],
    [1999, 'pro', 500, true],
    // A manual prorated charge: at the best rate a plan sells credits (pro: 500 for 19.99), rounded down.
    [500, 'pro', 125, false],
    [1, 'pro', 0, false],
  ])(
    'When a sale of %i cents arrives, then it pays for the %s plan: %i credits',
    (amount, pkg, credits, planPriced) => {
      expect(creditsForSale(amount, 'USD', PRICES, null)).toEqual({
        packageId: pkg,
        packageName: pkg === 'pro' ? 'Pro' : 'Basic',
        credits,
        planPriced,
      });
    },
  );

  test('When a sale is in a currency no plan is priced in, then it pays for nothing this service can name', () => {
    expect(creditsForSale(999, 'EUR', PRICES, null)).toBeNull();
  });

  test.each([
    ['RESOLVED_SELLER_FAVOUR', 'won'],
    ['CANCELED_BY_BUYER', 'won'],
    ['DENIED', 'won'],
    ['RESOLVED_BUYER_FAVOUR', 'lost'],
    ['ACCEPTED', 'lost'],
    ['RESOLVED_WITH_PAYOUT', 'lost'],
    ['NONE', 'lost'],
    [null, 'lost'],
  ])('When a dispute resolves with outcome %p, then it is %s', (code, status) => {
    expect(resolvedStatus(code)).toBe(status);
  });

  test(
    'When a CREATED arrives after the resolution, ' + 'then the dispute stays resolved; the newer resolution stands',
    () => {
      const open: DisputeState = {
        status: 'open',
        amountCents: 999,
        outcomeCode: null,
        version: '2026-11-22T00:00:00Z',
      };
      const won: DisputeState = {
        status: 'won',
        amountCents: 999,
        outcomeCode: 'DENIED',
        version: '2026-12-01T00:00:00Z',
      };
      const lostLater: DisputeState = {
        ...won,
        status: 'lost',
        outcomeCode: 'RESOLVED_BUYER_FAVOUR',
        version: '2027-01-01T00:00:00Z',
      };
      expect(foldDispute(won, open)).toEqual(won);
      expect(foldDispute(open, won)).toEqual(won);
      expect(foldDispute(won, lostLater)).toEqual(lostLater);
      expect(foldDispute(lostLater, won)).toEqual(lostLater);
    },
  );
});
