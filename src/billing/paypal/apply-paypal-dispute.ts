import type { PoolClient } from 'pg';
import type { CreditedPaymentStore } from '../credited-payments-store';
import type { CreditStore } from '../credits-store';
import type { EventResult } from '../../platform/webhooks/event-result';
import { PaymentNotKnownYetError } from '../apply-refund';
import { foldDispute, resolvedStatus, type DisputeState } from '../dispute-state';
import { formatCents } from '../money';
import { reconcileTakeback } from '../payment-takeback';
import type { PayPalEvent } from './paypal-event';

type Dispute = Extract<PayPalEvent, { kind: 'dispute' }>;
type Outcome = Omit<EventResult, 'duplicate'>;

/**
 * CUSTOMER.DISPUTE.CREATED / RESOLVED of a credited sale, in the caller's transaction under the sale's row lock.
 * The dispute's state is folded order-free (dispute-state.ts) into payment_disputes; then the credits standing taken
 * back from the sale are moved to match: an open or lost dispute takes its share of the sale's credits back (into
 * debt if they were spent, like a refund), a won one reinstates them. Each dispute counts once however many events
 * carry it; ledger key paypal:dispute:<dispute id>:<event id> (one movement per event at most).
 * A dispute that overtakes its sale is retried like a refund (PaymentNotKnownYetError).
 */
export async function applyPayPalDispute(
  deps: { credits: CreditStore; creditedPayments: CreditedPaymentStore },
  client: PoolClient,
  event: Dispute,
): Promise<Outcome> {
  const { dispute } = event;
  const none = (outcome: 'ignored' | 'rejected' | 'logged', detail: string, userId: string | null = null) => ({
    outcome,
    userId,
    credits: 0,
    transactionId: null,
    detail,
  });
  if (!dispute.saleId) return none('ignored', `dispute ${dispute.disputeId} names no seller transaction`);
  const payment = await deps.creditedPayments.lock(client, 'paypal', dispute.saleId);
  if (!payment) throw new PaymentNotKnownYetError('paypal', dispute.saleId);
  if (dispute.currency && dispute.currency !== payment.currency)
    return none(
      'rejected',
      `dispute currency ${dispute.currency} is not the sale's ${payment.currency}`,
      payment.userId,
    );

  const stored = await deps.creditedPayments.findDispute(client, 'paypal', dispute.disputeId);
  if (stored && stored.paymentId !== payment.paymentId)
    return none('rejected', `dispute ${dispute.disputeId} was first seen on sale ${stored.paymentId}`, payment.userId);
  const incoming: DisputeState = {
    status: dispute.resolved ? resolvedStatus(dispute.outcomeCode) : 'open',
    amountCents: Math.min(payment.amountCents, dispute.amountCents ?? payment.amountCents),
    outcomeCode: dispute.outcomeCode,
    version: dispute.updatedAt,
  };
  const next = foldDispute(stored, incoming);
  await deps.creditedPayments.saveDispute(client, {
    ...next,
    provider: 'paypal',
    disputeId: dispute.disputeId,
    paymentId: payment.paymentId,
  });
  const what = `dispute ${dispute.disputeId} of sale ${payment.paymentId} (${next.status}`;
  const moved = await reconcileTakeback(deps, client, payment, payment.refundedCents, {
    idempotencyKey: `paypal:dispute:${dispute.disputeId}:${event.eventId}`,
    reason:
      `PayPal ${what}${next.outcomeCode ? `, ${next.outcomeCode}` : ''}): ` +
      `${formatCents(next.amountCents)} ${payment.currency}`,
    metadata: {
      provider: 'paypal',
      eventId: event.eventId,
      eventType: event.eventType,
      disputeId: dispute.disputeId,
      paymentId: payment.paymentId,
      status: next.status,
      outcomeCode: next.outcomeCode,
      amountCents: next.amountCents,
    },
  });
  const base = { userId: payment.userId, transactionId: moved.transactionId };
  if (moved.delta > 0) {
    const debtNote = moved.debtAdded > 0 ? `; ${moved.debtAdded} already spent, recorded as debt` : '';
    return {
      ...base,
      outcome: 'revoked',
      credits: -moved.delta,
      detail: `${what}) took back ${moved.delta} credits${debtNote}`,
    };
  }
  if (moved.delta < 0)
    return {
      ...base,
      outcome: 'granted',
      credits: -moved.delta,
      detail: `${what}) reinstated ${-moved.delta} credits`,
    };
  return none('logged', `${what}): no credits to move`, payment.userId);
}
