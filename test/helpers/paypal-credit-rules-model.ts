import { disputedCents, foldDispute, resolvedStatus, type DisputeState } from '../../src/billing/dispute-state';
import { toCents } from '../../src/billing/money';
import type { PayPalEvent } from '../../src/billing/paypal/paypal-event';
import { creditsForSale, type PayPalPlanPrice } from '../../src/billing/paypal/sale-credits';
import { refundedAfter, takebackChange } from '../../src/billing/refund-credits';
import {
  activationAdvance,
  applySubscriptionChange,
  creditForSale,
  type SubscriptionState,
} from '../../src/billing/subscription-state';
import { PLANS } from './paypal-plan-change-scenario';

/**
 * The PayPal credit rules as pure logic over plain maps, composed the way apply-paypal-event.ts, apply-refund.ts,
 * apply-paypal-dispute.ts and payment-takeback.ts compose them around the database: one method call per event
 * transaction. For driving millions of delivery orders; the database code itself is driven through sampled orders
 * in test/integration/paypal-paid-for-credits.test.ts.
 */

export const PRICES: PayPalPlanPrice[] = [
  { packageId: 'basic', packageName: 'Basic', credits: 100, currency: 'USD', amountCents: 999 },
  { packageId: 'pro', packageName: 'Pro', credits: 500, currency: 'USD', amountCents: 1999 },
];
const PACKAGE_OF_PLAN: Record<string, { id: string; credits: number }> = {
  [PLANS.basic.planId]: { id: 'basic', credits: PLANS.basic.credits },
  [PLANS.pro.planId]: { id: 'pro', credits: PLANS.pro.credits },
};

interface Payment {
  amountCents: number;
  credits: number;
  refundedCents: number;
  creditsRevoked: number;
}

/** The stores as plain maps; each method is one event's transaction. False = "not known yet": retried later. */
export class Ledger {
  granted = 0;
  takenBack = 0;
  subscription: SubscriptionState | null = null;
  readonly payments = new Map<string, Payment>();
  readonly refunds = new Set<string>();
  readonly disputes = new Map<string, DisputeState>();
  private readonly claimed = new Set<string>();

  apply(event: PayPalEvent): boolean {
    if (this.claimed.has(event.eventId)) return true;
    const done = this.applyOnce(event);
    if (done) this.claimed.add(event.eventId);
    return done;
  }

  private applyOnce(event: PayPalEvent): boolean {
    if (event.kind === 'subscription') {
      const stored = this.subscription ?? {
        status: 'PENDING',
        planId: null,
        packageId: null,
        nextBillingTime: null,
        lastPaymentAt: null,
        lastFailedPaymentAt: null,
        lastFailureReason: null,
        cancelledAt: null,
        providerUpdatedAt: null,
        salesCredited: 0,
        advanceUnsettled: 0,
      };
      const pkg = event.change.planId ? (PACKAGE_OF_PLAN[event.change.planId] ?? null) : null;
      // apply-paypal-event.ts: the activation's payment priced as its sale will be (a trial's share, $0 nothing).
      const paid = event.change.lastPaymentAmount;
      const bought =
        event.eventType === 'BILLING.SUBSCRIPTION.ACTIVATED' && pkg && paid && paid.cents > 0
          ? (creditsForSale(paid.cents, paid.currency, PRICES, pkg.id)?.credits ?? null)
          : null;
      const advance = activationAdvance(stored, event.eventType, event.change, bought);
      this.subscription = {
        ...stored,
        ...applySubscriptionChange(stored, event.change, event.eventType, pkg?.id ?? null),
        advanceUnsettled: stored.advanceUnsettled + advance,
      };
      this.granted += advance;
      return true;
    }
    if (event.kind === 'sale') {
      const subscription = this.subscription;
      if (!subscription) return false;
      const cents = toCents(event.sale.total) as number;
      const bought = creditsForSale(cents, event.sale.currency, PRICES, subscription.packageId);
      if (!bought) throw new Error(`no plan for ${event.sale.total}`);
      if (this.payments.has(event.sale.saleId)) return true;
      const credit = creditForSale(subscription, bought.credits, bought.planPriced);
      this.payments.set(event.sale.saleId, {
        amountCents: cents,
        credits: bought.credits,
        refundedCents: 0,
        creditsRevoked: 0,
      });
      this.subscription = {
        ...subscription,
        salesCredited: credit.salesCredited,
        advanceUnsettled: credit.advanceUnsettled,
      };
      this.granted += credit.grant;
      return true;
    }
    if (event.kind === 'refund') {
      const payment = this.payments.get(event.refund.saleId);
      if (!payment) return false;
      if (this.refunds.has(event.refund.refundId)) return true;
      this.refunds.add(event.refund.refundId);
      const cents = event.refund.amountCents ?? payment.amountCents - payment.refundedCents;
      this.move(event.refund.saleId, payment, refundedAfter(payment, cents));
      return true;
    }
    if (event.kind === 'dispute') {
      const { dispute } = event;
      const payment = dispute.saleId ? this.payments.get(dispute.saleId) : undefined;
      if (!payment || !dispute.saleId) return false;
      this.disputes.set(
        `${dispute.saleId}/${dispute.disputeId}`,
        foldDispute(this.disputes.get(`${dispute.saleId}/${dispute.disputeId}`) ?? null, {
          status: dispute.resolved ? resolvedStatus(dispute.outcomeCode) : 'open',
          amountCents: Math.min(payment.amountCents, dispute.amountCents ?? payment.amountCents),
          outcomeCode: dispute.outcomeCode,
          version: dispute.updatedAt,
        }),
      );
      this.move(dispute.saleId, payment, payment.refundedCents);
      return true;
    }
    return true;
  }

  /** payment-takeback.ts: moves the ledger to what the totals say stands taken back. */
  private move(saleId: string, payment: Payment, refundedCents: number) {
    const held = [...this.disputes]
      .filter(([key]) => key.startsWith(`${saleId}/`))
      .reduce((sum, [, d]) => sum + disputedCents(d), 0);
    const change = takebackChange(payment, { refundedCents, disputedCents: held });
    if (change.delta > 0) this.takenBack += change.delta;
    else this.granted -= change.delta;
    payment.refundedCents = refundedCents;
    payment.creditsRevoked = change.creditsRevoked;
  }

  /** What the account holds by the rules: the recorded sales net of takebacks, plus the advance not yet settled. */
  heldByRule(): number {
    let held = this.subscription?.advanceUnsettled ?? 0;
    for (const p of this.payments.values()) held += p.credits - p.creditsRevoked;
    return held;
  }
}

/** Delivers in order; what is not known yet waits and is retried after every later delivery (Temporal's retry). */
export function deliver(events: PayPalEvent[], check: (ledger: Ledger) => void = () => {}): Ledger {
  const ledger = new Ledger();
  let waiting: PayPalEvent[] = [];
  for (const event of events) {
    if (!ledger.apply(event)) waiting.push(event);
    for (let progress = waiting.length > 0; progress; ) {
      const before = waiting.length;
      waiting = waiting.filter((e) => !ledger.apply(e));
      progress = waiting.length > 0 && waiting.length < before;
    }
    check(ledger);
  }
  if (waiting.length > 0) throw new Error(`never applied: ${waiting.map((e) => e.eventType).join(', ')}`);
  return ledger;
}

/** Every order of `items` (Heap's algorithm, iterative), without materialising them all. */
export function* permutations<T>(items: readonly T[]): Generator<T[]> {
  const a = [...items];
  const c = new Array<number>(a.length).fill(0);
  yield [...a];
  for (let i = 1; i < a.length; ) {
    if ((c[i] as number) < i) {
      const j = i % 2 === 0 ? 0 : (c[i] as number);
      [a[j], a[i]] = [a[i] as T, a[j] as T];
      yield [...a];
      c[i] = (c[i] as number) + 1;
      i = 1;
    } else {
      c[i] = 0;
      i += 1;
    }
  }
}

export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(items: T[], random: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}
