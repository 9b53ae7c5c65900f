import type { Pool } from 'pg';
import type { CreditedPaymentStore } from '../credited-payments-store';
import type { CreditStore } from '../credits-store';
import type { PackageStore } from '../packages-store';
import type { SubscriptionStore } from '../subscriptions-store';
import { inTransaction } from '../../platform/db/transaction';
import type { UserStore } from '../../identity';
import type { WebhookEventStore } from '../../platform/webhooks/webhook-events-store';
import { previousResult, recordEventOutcome, type EventResult } from '../../platform/webhooks/event-result';
import { findAccountHolder, grantForPayment, holdsFor } from '../payment-grants';
import { formatCents, toCents } from '../money';
import type { PayPalEvent } from './paypal-event';
import { applyRefund } from '../apply-refund';
import { activationAdvance, applySalePayment, applySubscriptionChange, creditForSale } from '../subscription-state';
import { AppError } from '../../platform/errors';
import { creditsForSale, type PayPalPlanPrice } from './sale-credits';
import { applyPayPalDispute } from './apply-paypal-dispute';
import { BILLING_ERRORS } from '../error-codes';

export interface PayPalBillingDeps {
  pool: Pool;
  users: UserStore;
  credits: CreditStore;
  packages: PackageStore;
  subscriptions: SubscriptionStore;
  webhookEvents: WebhookEventStore;
  creditedPayments: CreditedPaymentStore;
}

/** A sale arrived before the subscription it pays for: retried until ACTIVATED/UPDATED has stored it. */
export class SubscriptionNotKnownYetError extends AppError {
  constructor(subscriptionId: string) {
    super(BILLING_ERRORS.SUBSCRIPTION_NOT_KNOWN_YET, `subscription ${subscriptionId} is not known yet`);
  }
}

type Subscription = Extract<PayPalEvent, { kind: 'subscription' }>;
type Sale = Extract<PayPalEvent, { kind: 'sale' }>;
type Refund = Extract<PayPalEvent, { kind: 'refund' }>;

/**
 * Applies one PayPal event in one transaction: claim (provider, event id) → change the stored
 * subscription → grant → record the outcome. A repeated delivery loses the claim and changes nothing.
 * Credits come only from sales (docs/credits.md, "credit rules"): a plan change grants nothing by itself, and
 * refunds, reversals and disputes take back what the sale paid for.
 */
export async function applyPayPalEvent(
  deps: PayPalBillingDeps,
  event: PayPalEvent,
  payload: unknown,
): Promise<EventResult> {
  return inTransaction(deps.pool, async (client) => {
    if (!(await deps.webhookEvents.claim(client, 'paypal', event.eventId, event.eventType, payload))) {
      return previousResult(client, deps.webhookEvents, 'paypal', event.eventId);
    }
    const result = await applyByKind(deps, client, event);
    return recordEventOutcome(client, deps.webhookEvents, 'paypal', event.eventId, result);
  });
}

type Client = Parameters<Parameters<typeof inTransaction>[1]>[0];
type Outcome = Omit<EventResult, 'duplicate'>;

function applyByKind(deps: PayPalBillingDeps, client: Client, event: PayPalEvent): Promise<Outcome> {
  switch (event.kind) {
    case 'subscription':
      return applySubscriptionEvent(deps, client, event);
    case 'sale':
      return applySale(deps, client, event);
    case 'refund':
      return applyPayPalRefund(deps, client, event);
    case 'dispute':
      return applyPayPalDispute(deps, client, event);
    default:
      return Promise.resolve({
        outcome: 'ignored',
        userId: null,
        credits: 0,
        transactionId: null,
        detail: `event type ${event.eventType} is not handled`,
      });
  }
}

const rejected = (detail: string, userId: string | null = null): Outcome => ({
  outcome: 'rejected',
  userId,
  credits: 0,
  transactionId: null,
  detail,
});

/**
 * ACTIVATED / UPDATED / CANCELLED / PAYMENT.FAILED / SUSPENDED / EXPIRED: folds the resource into the stored
 * subscription, attached to the user custom_id names only when that user exists. Only ACTIVATED may grant: an advance
 * of what its first payment bought (activationAdvance: a trial or setup fee buys its share, $0 nothing), key
 * paypal:<event id>. An upgrade's credits come with the sale that pays
 * the new price.
 */
async function applySubscriptionEvent(deps: PayPalBillingDeps, client: Client, event: Subscription): Promise<Outcome> {
  const { change } = event;
  const holder = await findAccountHolder(deps.users, change.customId, client);
  if (!holder) return rejected(`custom_id ${change.customId} names no user of this service; nothing is attached to it`);

  // A new subscription belongs to the account custom_id's user acts in (their team), else their own.
  const stored = await deps.subscriptions.lockOrCreate(client, change.subscriptionId, holder.account.id);
  if (!(await holdsFor(deps.users, holder, stored.userId, client))) {
    return rejected(`subscription ${change.subscriptionId} belongs to another user than custom_id`, stored.userId);
  }
  const pkg = change.planId ? await deps.packages.findByPayPalPlan(change.planId, client) : null;
  const next = applySubscriptionChange(stored, change, event.eventType, pkg?.id ?? null);
  const bought = await activationPaymentCredits(deps, client, event, pkg?.id ?? null);
  const advance = activationAdvance(stored, event.eventType, change, bought);
  await deps.subscriptions.save(client, { ...stored, ...next, advanceUnsettled: stored.advanceUnsettled + advance });

  const planNote = change.planId && !pkg ? `; plan ${change.planId} is not mapped to a credit package` : '';
  if (advance === 0)
    return {
      outcome: 'applied',
      userId: stored.userId,
      credits: 0,
      transactionId: null,
      detail: `subscription ${next.status.toLowerCase()}${planNote}`,
    };
  const grant = await grantForPayment({
    client,
    credits: deps.credits,
    userId: stored.userId,
    amount: advance,
    idempotencyKey: `paypal:${event.eventId}`,
    reason:
      `PayPal subscription activated: ${pkg?.name} (advance on its first payment, ` +
      `${formatCents(change.lastPaymentAmount?.cents ?? 0)} ${change.lastPaymentAmount?.currency})`,
    source: 'paypal',
    metadata: {
      provider: 'paypal',
      eventId: event.eventId,
      eventType: event.eventType,
      subscriptionId: change.subscriptionId,
      planId: change.planId,
      packageId: pkg?.id,
      advance: true,
      paidCents: change.lastPaymentAmount?.cents,
      currency: change.lastPaymentAmount?.currency,
    },
  });
  return {
    outcome: 'granted',
    userId: stored.userId,
    credits: advance,
    transactionId: grant.transactionId,
    detail:
      advance === pkg?.credits
        ? `${pkg?.id} plan credits advanced on the first payment`
        : `${advance} credits advanced on a first payment of ` +
          `${formatCents(change.lastPaymentAmount?.cents ?? 0)} ${change.lastPaymentAmount?.currency} ` +
          `(a trial or setup fee; the ${pkg?.id} plan's ${pkg?.credits} come with the sale at its price)`,
  };
}

/**
 * What the payment an ACTIVATED event reports (billing_info.last_payment) buys, priced exactly as its sale will be
 * (sale-credits.ts): the plan's credits for the plan's price, a paid trial's or setup fee's share for less, so the
 * sale settles the advance to the credit. Null (no advance) for any other event, a plan not mapped to a package, no
 * reported payment, $0, or a currency no plan is priced in.
 */
async function activationPaymentCredits(
  deps: PayPalBillingDeps,
  client: Client,
  event: Subscription,
  packageId: string | null,
): Promise<number | null> {
  const paid = event.change.lastPaymentAmount;
  if (event.eventType !== 'BILLING.SUBSCRIPTION.ACTIVATED' || !packageId || !paid || paid.cents === 0) return null;
  const bought = creditsForSale(
    paid.cents,
    paid.currency,
    await paypalPrices(deps, client, event.change.planId),
    packageId,
  );
  return bought?.credits ?? null;
}

/**
 * PAYMENT.SALE.COMPLETED: a payment of the subscription named by billing_agreement_id. It pays for the credits of
 * the plan at the price charged (sale-credits.ts), recorded in credited_payments (what its refunds and disputes take
 * back) and granted beyond the activation advance it settles, key paypal:sale:<sale id>.
 */
async function applySale(deps: PayPalBillingDeps, client: Client, event: Sale): Promise<Outcome> {
  const { sale } = event;
  if (sale.state && sale.state !== 'completed') return rejected(`sale state is ${sale.state}`);
  if (!sale.subscriptionId)
    return rejected('the sale names no billing_agreement_id, so it cannot be attributed to a user');
  const subscription = await deps.subscriptions.lock(client, sale.subscriptionId);
  if (!subscription) {
    // `custom` echoes the subscription's custom_id: naming no user, the subscription will never be stored either.
    if (sale.custom && !(await findAccountHolder(deps.users, sale.custom, client)))
      return rejected(`sale ${sale.saleId}: custom ${sale.custom} names no user of this service; nothing is attached`);
    throw new SubscriptionNotKnownYetError(sale.subscriptionId);
  }

  const cents = toCents(sale.total);
  const bought =
    cents === null || cents === 0
      ? null
      : creditsForSale(
          cents,
          sale.currency,
          await paypalPrices(deps, client, subscription.planId),
          subscription.packageId,
        );
  if (!bought)
    return rejected(`no credit plan is priced in ${sale.currency} to credit ${sale.total}`, subscription.userId);

  const credit = creditForSale(subscription, bought.credits, bought.planPriced);
  // Recorded with everything it paid for, even the part an advance granted: its refund takes all of it back.
  const firstTime = await deps.creditedPayments.record(client, {
    provider: 'paypal',
    paymentId: sale.saleId,
    userId: subscription.userId,
    subscriptionId: sale.subscriptionId,
    cycle: credit.cycle,
    packageId: bought.packageId,
    amountCents: cents as number,
    currency: sale.currency,
    credits: bought.credits,
  });
  const logged = (detail: string, transactionId: string | null = null): Outcome => ({
    outcome: 'logged',
    userId: subscription.userId,
    credits: 0,
    transactionId,
    detail,
  });
  if (!firstTime) return logged(`sale ${sale.saleId} was already credited`);
  await deps.subscriptions.save(client, {
    ...subscription,
    ...applySalePayment(subscription, sale.createdAt),
    salesCredited: credit.salesCredited,
    advanceUnsettled: credit.advanceUnsettled,
  });
  const paid = bought.planPriced ? `cycle ${credit.cycle}` : `a prorated ${bought.packageId} charge`;
  if (credit.grant === 0)
    return logged(`sale ${sale.saleId} paid ${paid} (${bought.credits} credits), which activation already advanced`);
  const grant = await grantForPayment({
    client,
    credits: deps.credits,
    userId: subscription.userId,
    amount: credit.grant,
    idempotencyKey: `paypal:sale:${sale.saleId}`,
    reason: `PayPal payment ${sale.total} ${sale.currency}: ${bought.packageName} (${paid})`,
    source: 'paypal',
    metadata: {
      provider: 'paypal',
      eventId: event.eventId,
      eventType: event.eventType,
      saleId: sale.saleId,
      subscriptionId: sale.subscriptionId,
      cycle: credit.cycle,
      packageId: bought.packageId,
      paidFor: bought.credits,
      amount: sale.total,
      currency: sale.currency,
      customMatches: sale.custom === null ? null : sale.custom === (await clerkIdOf(deps, subscription.userId, client)),
    },
  });
  if (grant.duplicate) return logged(`sale ${sale.saleId} was already credited`, grant.transactionId);
  return {
    outcome: 'granted',
    userId: subscription.userId,
    credits: credit.grant,
    transactionId: grant.transactionId,
    detail: `${bought.packageId} payment, ${paid}`,
  };
}

/**
 * A refund or reversal of a credited sale takes its credits back (apply-refund.ts); one that is not
 * completed changes nothing.
 */
async function applyPayPalRefund(deps: PayPalBillingDeps, client: Client, event: Refund): Promise<Outcome> {
  const { refund } = event;
  const settledStates = refund.kind === 'reversal' ? ['reversed'] : ['completed'];
  if (refund.state && !settledStates.includes(refund.state.toLowerCase())) {
    return {
      outcome: 'logged',
      userId: null,
      credits: 0,
      transactionId: null,
      detail: `${refund.kind} state is ${refund.state}; nothing taken back`,
    };
  }
  return applyRefund(deps, client, {
    provider: 'paypal',
    refundId: refund.refundId,
    paymentId: refund.saleId,
    kind: refund.kind,
    amountCents: refund.amountCents,
    currency: refund.currency,
    eventId: event.eventId,
  });
}

/** The PayPal prices of the packages on sale, and of the subscription's own plan even when no longer on sale. */
async function paypalPrices(
  deps: PayPalBillingDeps,
  client: Client,
  planId: string | null,
): Promise<PayPalPlanPrice[]> {
  const active = await deps.packages.listActive(client);
  const own = planId ? await deps.packages.findByPayPalPlan(planId, client) : null;
  const packages = own && !active.some((p) => p.id === own.id) ? [...active, own] : active;
  return packages.flatMap((p) =>
    p.prices
      .filter((price) => price.provider === 'paypal')
      .map((price) => ({
        packageId: p.id,
        packageName: p.name,
        credits: p.credits,
        currency: price.currency,
        amountCents: price.amountCents,
      })),
  );
}

async function clerkIdOf(deps: PayPalBillingDeps, userId: string, client: Client): Promise<string | null> {
  return (await deps.users.findByAnyId(userId, client))?.clerkUserId ?? null;
}
