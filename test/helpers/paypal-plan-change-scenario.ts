import { randomUUID } from 'node:crypto';

/**
 * One PayPal subscriber's life as webhook bodies, for the "credits granted minus taken back = credits paid for"
 * invariant (docs/credits.md, "credit rules"): activated on basic, first sale, upgraded to pro, second sale at the
 * pro price, downgraded, cancelled; one sale refunded and one disputed (optionally resolved). The same bodies feed
 * the pure model test, the database-level test and the webhook-route test.
 */

/** The seeded PayPal plans (migration 006). */
export const PLANS = {
  basic: { planId: 'P-5ML4271244454362WXNWU5NQ', total: '9.99', cents: 999, credits: 100 },
  pro: { planId: 'P-3RX065706M3469222L5IFM4I', total: '19.99', cents: 1999, credits: 500 },
} as const;

export const STEPS = [
  'ACTIVATED',
  'SALE 1',
  'UPDATED up',
  'SALE 2',
  'UPDATED down',
  'CANCELLED',
  'REFUNDED',
  'DISPUTE',
] as const;
export type Step = (typeof STEPS)[number] | 'DISPUTE RESOLVED';

export interface ScenarioOptions {
  /** The sale REFUNDED refunds, and how much of it (PayPal's refund amount.total). */
  refund: { of: 'SALE 1' | 'SALE 2'; total: string };
  /** The sale disputed, and for how much (null = no dispute_amount: the whole sale). */
  dispute: { of: 'SALE 1' | 'SALE 2'; total: string | null };
  /** dispute_outcome.outcome_code of DISPUTE RESOLVED. */
  outcome: string;
}

export const DEFAULT_OPTIONS: ScenarioOptions = {
  refund: { of: 'SALE 1', total: '9.99' },
  dispute: { of: 'SALE 2', total: '19.99' },
  outcome: 'RESOLVED_SELLER_FAVOUR',
};

const hex = (n: number) => randomUUID().replace(/-/g, '').slice(0, n).toUpperCase();
export const newClerkUserId = (): string => `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

export interface Scenario {
  clerkUserId: string;
  subscriptionId: string;
  saleIds: { 'SALE 1': string; 'SALE 2': string };
  refundId: string;
  disputeId: string;
  options: ScenarioOptions;
  /** The webhook body of a step, with a fresh event id each call unless `eventId` is given. */
  body(step: Step, eventId?: string): Record<string, any>;
  /** Credits paid for once these steps (each at least once) have all been applied. */
  paidFor(steps: readonly Step[]): number;
}

const cents = (total: string): number => Math.round(Number(total.replace(/^-/, '')) * 100);
const WON = new Set(['RESOLVED_SELLER_FAVOUR', 'CANCELED_BY_BUYER', 'DENIED']);

export function planChangeScenario(
  options: ScenarioOptions = DEFAULT_OPTIONS,
  clerkUserId = newClerkUserId(),
): Scenario {
  const subscriptionId = `I-${hex(12)}`;
  const saleIds = { 'SALE 1': `S1${hex(15)}`, 'SALE 2': `S2${hex(15)}` };
  const refundId = `R${hex(16)}`;
  const disputeId = `PP-D-${hex(10)}`;
  const saleOf = { 'SALE 1': PLANS.basic, 'SALE 2': PLANS.pro } as const;

  const subscription = (
    type: string,
    status: string,
    plan: { planId: string },
    updateTime: string,
    lastPayment: { total: string; time: string },
  ) => ({
    event_type: `BILLING.SUBSCRIPTION.${type}`,
    resource_type: 'subscription',
    resource_version: '2.0',
    resource: {
      id: subscriptionId,
      status,
      plan_id: plan.planId,
      custom_id: clerkUserId,
      start_time: '2026-10-01T08:59:00Z',
      update_time: updateTime,
      status_update_time: type === 'CANCELLED' ? updateTime : '2026-10-01T09:00:02Z',
      billing_info: {
        last_payment: { amount: { currency_code: 'USD', value: lastPayment.total }, time: lastPayment.time },
        next_billing_time: '2026-12-01T10:00:00Z',
        failed_payments_count: 0,
      },
    },
  });
  const sale = (step: 'SALE 1' | 'SALE 2', time: string) => ({
    event_type: 'PAYMENT.SALE.COMPLETED',
    resource_type: 'sale',
    resource: {
      id: saleIds[step],
      state: 'completed',
      billing_agreement_id: subscriptionId,
      custom: clerkUserId,
      create_time: time,
      update_time: time,
      amount: { total: saleOf[step].total, currency: 'USD', details: { subtotal: saleOf[step].total } },
    },
  });
  const dispute = (resolved: boolean) => ({
    event_type: resolved ? 'CUSTOMER.DISPUTE.RESOLVED' : 'CUSTOMER.DISPUTE.CREATED',
    resource_type: 'dispute',
    resource: {
      dispute_id: disputeId,
      create_time: '2026-11-22T08:00:00.000Z',
      update_time: resolved ? '2026-12-15T08:00:00.000Z' : '2026-11-22T08:00:00.000Z',
      disputed_transactions: [
        { buyer_transaction_id: `B${hex(16)}`, seller_transaction_id: saleIds[options.dispute.of] },
      ],
      reason: 'UNAUTHORISED',
      status: resolved ? 'RESOLVED' : 'WAITING_FOR_SELLER_RESPONSE',
      ...(options.dispute.total === null
        ? {}
        : { dispute_amount: { currency_code: 'USD', value: options.dispute.total } }),
      ...(resolved ? { dispute_outcome: { outcome_code: options.outcome } } : {}),
      dispute_life_cycle_stage: 'CHARGEBACK',
    },
  });
  const first = { total: PLANS.basic.total, time: '2026-10-01T09:00:01Z' };
  const second = { total: PLANS.pro.total, time: '2026-11-01T10:00:01Z' };
  const templates: Record<Step, () => Record<string, unknown>> = {
    ACTIVATED: () => subscription('ACTIVATED', 'ACTIVE', PLANS.basic, '2026-10-01T09:00:02Z', first),
    'SALE 1': () => sale('SALE 1', first.time),
    'UPDATED up': () => subscription('UPDATED', 'ACTIVE', PLANS.pro, '2026-10-15T14:22:39Z', first),
    'SALE 2': () => sale('SALE 2', second.time),
    'UPDATED down': () => subscription('UPDATED', 'ACTIVE', PLANS.basic, '2026-11-10T12:00:00Z', second),
    CANCELLED: () => subscription('CANCELLED', 'CANCELLED', PLANS.basic, '2026-11-20T16:45:09Z', second),
    REFUNDED: () => ({
      event_type: 'PAYMENT.SALE.REFUNDED',
      resource_type: 'refund',
      resource: {
        id: refundId,
        sale_id: saleIds[options.refund.of],
        state: 'completed',
        amount: { total: options.refund.total, currency: 'USD' },
      },
    }),
    DISPUTE: () => dispute(false),
    'DISPUTE RESOLVED': () => dispute(true),
  };

  return {
    clerkUserId,
    subscriptionId,
    saleIds,
    refundId,
    disputeId,
    options,
    body: (step, eventId) => ({
      id: eventId ?? `WH-${randomUUID()}`,
      event_version: '1.0',
      create_time: '2026-12-20T00:00:00.000Z',
      summary: step,
      ...templates[step](),
    }),
    paidFor(steps) {
      const has = (s: Step) => steps.includes(s);
      let total = 0;
      for (const s of ['SALE 1', 'SALE 2'] as const) {
        if (!has(s)) continue;
        const { cents: paid, credits } = saleOf[s];
        let returned = 0;
        if (has('REFUNDED') && options.refund.of === s) returned += cents(options.refund.total);
        const disputeStands = has('DISPUTE RESOLVED') ? !WON.has(options.outcome) : has('DISPUTE');
        if (disputeStands && options.dispute.of === s)
          returned += options.dispute.total === null ? paid : cents(options.dispute.total);
        returned = Math.min(paid, returned);
        // In proportion, rounded down in the customer's favour; all of them once all the money went back.
        total += credits - (returned === paid ? credits : Math.floor((credits * returned) / paid));
      }
      return total;
    },
  };
}
