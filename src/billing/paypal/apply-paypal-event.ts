import type { Pool } from 'pg';
import type { CreditedPaymentStore } from '../credited-payments-store';
import type { CreditStore } from '../credits-store';
import type { PackageStore } from '../packages-store';
import type { SubscriptionStore } from '../subscriptions-store';
import { inTransaction } from '../../platform/db/transaction';
import type { UserStore } from '../../identity';
import type { WebhookEventStore } from '../../platform/webhooks/webhook-events-store';
import { previousResult, settle, type EventResult } from '../../platform/webhooks/event-result';
import { grantForPayment, resolveAccountHolder } from '../payment-grants';
import { toCents } from '../money';
import type { PayPalEvent, PayPalSale } from './paypal-event';
import { applyRefund } from '../apply-refund';
import { applySalePayment, applySubscriptionChange, creditForSale, planTopUp } from '../subscription-state';
import { AppError } from '../../platform/errors';

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
    super('SUBSCRIPTION_NOT_KNOWN_YET', `subscription ${subscriptionId} is not known yet`);
  }
}

type Subscription = Extract<PayPalEvent, { kind: 'subscription' }>;
type Sale = Extract<PayPalEvent, { kind: 'sale' }>;
type Refund = Extract<PayPalEvent, { kind: 'refund' }>;

/**
 * Applies one PayPal event in one transaction: claim (provider, event id) → change the stored
 * subscription → grant → record the outcome. A repeated delivery loses the claim and changes nothing.
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
    const result =
      event.kind === 'subscription'
        ? await applySubscriptionEvent(deps, client, event)
        : event.kind === 'sale'
          ? await applySale(deps, client, event)
          : event.kind === 'refund'
            ? await applyPayPalRefund(deps, client, event)
            : {
                outcome: 'ignored' as const,
                userId: null,
                credits: 0,
                transactionId: null,
                detail: `event type ${event.eventType} is not handled`,
              };
    return settle(client, deps.webhookEvents, 'paypal', event.eventId, result);
  });
}

type Client = Parameters<Parameters<typeof inTransaction>[1]>[0];
type Outcome = Omit<EventResult, 'duplicate'>;

async function applySubscriptionEvent(deps: PayPalBillingDeps, client: Client, event: Subscription): Promise<Outcome> {
  const { change } = event;
  const user = await resolveAccountHolder(deps.users, change.customId);
  if (!user)
    return {
      outcome: 'rejected',
      userId: null,
      credits: 0,
      transactionId: null,
      detail: `custom_id ${change.customId} names no user`,
    };

  const stored = await deps.subscriptions.lockOrCreate(client, change.subscriptionId, user.id);
  if (stored.userId !== user.id) {
    return {
      outcome: 'rejected',
      userId: stored.userId,
      credits: 0,
      transactionId: null,
      detail: `subscription ${change.subscriptionId} belongs to another user than custom_id`,
    };
  }
  const pkg = change.planId ? await deps.packages.findByPayPalPlan(change.planId, client) : null;
  const next = applySubscriptionChange(stored, change, event.eventType, pkg?.id ?? null);
  const topUp = planTopUp(event.eventType, change, pkg?.credits ?? null, stored.planCreditsGranted);
  if (topUp > 0) next.planCreditsGranted = stored.planCreditsGranted + topUp;
  await deps.subscriptions.save(client, { ...stored, ...next });

  const planNote = change.planId && !pkg ? `; plan ${change.planId} is not mapped to a credit package` : '';
  if (topUp === 0)
    return {
      outcome: 'applied',
      userId: user.id,
      credits: 0,
      transactionId: null,
      detail: `subscription ${next.status.toLowerCase()}${planNote}`,
    };
  const grant = await grantForPayment({
    client,
    credits: deps.credits,
    userId: user.id,
    amount: topUp,
    idempotencyKey: `paypal:${event.eventId}`,
    reason:
      `PayPal ${event.eventType === 'BILLING.SUBSCRIPTION.ACTIVATED' ? 'subscription activated' : 'plan change'}: ` +
      `${pkg?.name}`,
    source: 'paypal',
    metadata: {
      provider: 'paypal',
      eventId: event.eventId,
      eventType: event.eventType,
      subscriptionId: change.subscriptionId,
      planId: change.planId,
      packageId: pkg?.id,
    },
  });
  return {
    outcome: 'granted',
    userId: user.id,
    credits: topUp,
    transactionId: grant.transactionId,
    detail: `${pkg?.id} plan credits`,
  };
}

async function applySale(deps: PayPalBillingDeps, client: Client, event: Sale): Promise<Outcome> {
  const { sale } = event;
  const reject = (detail: string, userId: string | null = null): Outcome => ({
    outcome: 'rejected',
    userId,
    credits: 0,
    transactionId: null,
    detail,
  });
  if (sale.state && sale.state !== 'completed') return reject(`sale state is ${sale.state}`);
  if (!sale.subscriptionId)
    return reject('the sale names no billing_agreement_id, so it cannot be attributed to a user');
  const subscription = await deps.subscriptions.lock(client, sale.subscriptionId);
  if (!subscription) throw new SubscriptionNotKnownYetError(sale.subscriptionId);

  const cents = toCents(sale.total);
  const pkg = cents === null ? null : await packageForSale(deps, client, sale, subscription.planId, cents);
  if (!pkg) return reject(`no credit package costs ${sale.total} ${sale.currency}`, subscription.userId);

  const credit = creditForSale(subscription, pkg.credits);
  // The payment is recorded with the cycle's credits even when activation granted them: its refund takes them back.
  const firstTime = await deps.creditedPayments.record(client, {
    provider: 'paypal',
    paymentId: sale.saleId,
    userId: subscription.userId,
    subscriptionId: sale.subscriptionId,
    cycle: credit.cycle,
    packageId: pkg.id,
    amountCents: cents as number,
    currency: sale.currency,
    credits: pkg.credits,
  });
  if (!firstTime)
    return {
      outcome: 'logged',
      userId: subscription.userId,
      credits: 0,
      transactionId: null,
      detail: `sale ${sale.saleId} was already credited`,
    };
  await deps.subscriptions.save(client, {
    ...subscription,
    ...applySalePayment(subscription, sale.createdAt),
    salesCredited: credit.cycle,
    planCreditsGranted: credit.planCreditsGranted,
  });
  if (credit.grant === 0) {
    return {
      outcome: 'logged',
      userId: subscription.userId,
      credits: 0,
      transactionId: null,
      detail: `sale ${sale.saleId} paid cycle ${credit.cycle}, whose credits activation already granted`,
    };
  }
  const grant = await grantForPayment({
    client,
    credits: deps.credits,
    userId: subscription.userId,
    amount: credit.grant,
    idempotencyKey: `paypal:sale:${sale.saleId}`,
    reason: `PayPal payment ${sale.total} ${sale.currency}: ${pkg.name} (cycle ${credit.cycle})`,
    source: 'paypal',
    metadata: {
      provider: 'paypal',
      eventId: event.eventId,
      eventType: event.eventType,
      saleId: sale.saleId,
      subscriptionId: sale.subscriptionId,
      cycle: credit.cycle,
      packageId: pkg.id,
      amount: sale.total,
      currency: sale.currency,
      customMatches: sale.custom === null ? null : sale.custom === (await clerkIdOf(deps, subscription.userId)),
    },
  });
  if (grant.duplicate)
    return {
      outcome: 'logged',
      userId: subscription.userId,
      credits: 0,
      transactionId: grant.transactionId,
      detail: `sale ${sale.saleId} was already credited`,
    };
  return {
    outcome: 'granted',
    userId: subscription.userId,
    credits: credit.grant,
    transactionId: grant.transactionId,
    detail: `${pkg.id} payment, cycle ${credit.cycle}`,
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

/** The subscription's own plan when the amount is its price, else the one package with that PayPal price. */
async function packageForSale(
  deps: PayPalBillingDeps,
  client: Client,
  sale: PayPalSale,
  planId: string | null,
  cents: number,
) {
  const planPackage = planId ? await deps.packages.findByPayPalPlan(planId, client) : null;
  const planPrice = planPackage?.prices.find((p) => p.paypalPlanId === planId);
  if (planPackage && planPrice && planPrice.amountCents === cents && planPrice.currency === sale.currency)
    return planPackage;
  return deps.packages.findByPayPalAmount(sale.currency, cents, client);
}

async function clerkIdOf(deps: PayPalBillingDeps, userId: string): Promise<string | null> {
  return (await deps.users.findByAnyId(userId))?.clerkUserId ?? null;
}
