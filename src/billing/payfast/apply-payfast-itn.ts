import type { Pool } from 'pg';
import type { CreditedPaymentStore } from '../credited-payments-store';
import type { CreditStore } from '../credits-store';
import type { PackageStore } from '../packages-store';
import type { PayFastCheckoutStore } from './payfast-checkouts-store';
import { inTransaction } from '../../platform/db/transaction';
import type { UserStore } from '../../identity';
import type { WebhookEventStore } from '../../platform/webhooks/webhook-events-store';
import { previousResult, recordEventOutcome, type EventResult } from '../../platform/webhooks/event-result';
import { grantForPayment } from '../payment-grants';
import { toCents } from '../money';
import { payfastEventId } from '../workflow-ids';

export interface PayFastBillingDeps {
  pool: Pool;
  users: UserStore;
  credits: CreditStore;
  packages: PackageStore;
  payfastCheckouts: PayFastCheckoutStore;
  webhookEvents: WebhookEventStore;
  creditedPayments: CreditedPaymentStore;
}

/** The ITN fields processing needs (all verified by the route before the workflow started). */
export interface PayFastItn {
  pfPaymentId: string;
  paymentStatus: string;
  mPaymentId: string;
  amountGross: string | null;
  customStr1: string | null;
  fields: Record<string, string>;
}

const eventIdOf = (itn: Pick<PayFastItn, 'pfPaymentId' | 'paymentStatus'>): string =>
  payfastEventId(itn.pfPaymentId, itn.paymentStatus);

type Outcome = Omit<EventResult, 'duplicate'>;

/**
 * Applies one ITN in one transaction. COMPLETE grants the package of the checkout named by
 * m_payment_id, only when the amount is exactly its price, its user still exists and custom_str1 (when not
 * blank) names that user; ledger key
 * 'payfast:<pf_payment_id>'. FAILED and CANCELLED are recorded and change nothing (spec 4.6).
 */
export async function applyPayFastItn(deps: PayFastBillingDeps, itn: PayFastItn): Promise<EventResult> {
  const eventId = eventIdOf(itn);
  return inTransaction(deps.pool, async (client) => {
    if (!(await deps.webhookEvents.claim(client, 'payfast', eventId, itn.paymentStatus, itn.fields))) {
      return previousResult(client, deps.webhookEvents, 'payfast', eventId);
    }
    const checkout = await deps.payfastCheckouts.find(itn.mPaymentId, client);
    const userId = checkout?.userId ?? null;
    const record = (outcome: Outcome['outcome'], detail: string): Promise<EventResult> =>
      recordEventOutcome(client, deps.webhookEvents, 'payfast', eventId, {
        outcome,
        userId,
        credits: 0,
        transactionId: null,
        detail,
      });

    if (itn.paymentStatus !== 'COMPLETE')
      return record('logged', `payment ${itn.paymentStatus.toLowerCase()}; nothing changed`);
    if (!checkout) return record('rejected', `m_payment_id ${itn.mPaymentId} names no checkout`);
    // A payment attaches only to a user who exists now: a deleted (deactivated) account gets nothing, and a non-blank
    // custom_str1 must resolve to that same user, never to a name no user has.
    const owner = await deps.users.findByAnyId(checkout.userId, client);
    if (owner?.status !== 'active') {
      return record('rejected', `the user who started checkout ${itn.mPaymentId} no longer exists`);
    }
    if (itn.customStr1) {
      // The checkout's account is credited (the account its member was acting in); custom_str1 names that account
      // or, for a team's checkout, one of its members.
      const named = await deps.users.findByAnyId(itn.customStr1, client);
      if (!named || (named.id !== owner.id && !(await deps.users.wasMemberOf(owner.id, named.id, client)))) {
        return record(
          'rejected',
          'custom_str1 does not name the user who started the checkout ' +
            `(${named ? 'another user' : 'no existing user'})`,
        );
      }
    }
    const paid = itn.amountGross === null ? null : toCents(itn.amountGross);
    if (paid !== checkout.amountCents) {
      return record(
        'rejected',
        `amount_gross ${itn.amountGross ?? '(missing)'} is not the package price ` +
          `${(checkout.amountCents / 100).toFixed(2)}`,
      );
    }
    const pkg = await deps.packages.findById(checkout.packageId, client);
    if (!pkg) return record('rejected', `package ${checkout.packageId} no longer exists`);

    // The anchor of a later refund of this payment (credits it paid for, the amount, the user).
    await deps.creditedPayments.record(client, {
      provider: 'payfast',
      paymentId: itn.pfPaymentId,
      userId: checkout.userId,
      subscriptionId: itn.fields.token ?? null,
      cycle: null,
      packageId: pkg.id,
      amountCents: checkout.amountCents,
      currency: checkout.currency,
      credits: pkg.credits,
    });
    const grant = await grantForPayment({
      client,
      credits: deps.credits,
      userId: checkout.userId,
      amount: pkg.credits,
      idempotencyKey: `payfast:${itn.pfPaymentId}`,
      reason: `PayFast payment ${itn.amountGross} ${checkout.currency}: ${pkg.name}`,
      source: 'payfast',
      metadata: {
        provider: 'payfast',
        eventId: itn.pfPaymentId,
        mPaymentId: itn.mPaymentId,
        packageId: pkg.id,
        amountGross: itn.amountGross,
        token: itn.fields.token ?? null,
      },
    });
    return recordEventOutcome(client, deps.webhookEvents, 'payfast', eventId, {
      outcome: grant.duplicate ? 'logged' : 'granted',
      userId: checkout.userId,
      credits: grant.duplicate ? 0 : pkg.credits,
      transactionId: grant.transactionId,
      detail: grant.duplicate ? `payment ${itn.pfPaymentId} was already credited` : `${pkg.id} payment`,
    });
  });
}
