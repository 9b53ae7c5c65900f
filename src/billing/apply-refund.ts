import type { PoolClient } from 'pg';
import type { CreditedPaymentStore, PaymentProvider } from './credited-payments-store';
import type { CreditStore } from './credits-store';
import type { EventResult } from '../platform/webhooks/event-result';
import { formatCents } from './money';
import { refundedAfter } from './refund-credits';
import { reconcileTakeback } from './payment-takeback';
import { AppError } from '../platform/errors';
import { BILLING_ERRORS } from './error-codes';

/** A refund or reversal as the provider reports it. */
export interface RefundRequest {
  provider: PaymentProvider;
  /** The provider's id of this refund (PayPal refund id; `reversal:<sale id>` for a reversal; PayFast refund id). */
  refundId: string;
  /** The refunded payment: PayPal sale id, PayFast pf_payment_id. */
  paymentId: string;
  kind: 'refund' | 'reversal';
  /** Money returned; null = everything not refunded yet (a reversal takes the whole payment back). */
  amountCents: number | null;
  currency: string | null;
  /** The event (or request) that reported it, kept in the ledger metadata. */
  eventId: string;
}

/**
 * A refund for a payment this service has not credited (yet): retried, so a refund that overtakes its sale is not lost.
 */
export class PaymentNotKnownYetError extends AppError {
  constructor(
    readonly provider: PaymentProvider,
    readonly paymentId: string,
    options: { retryable?: boolean } = {},
  ) {
    super(BILLING_ERRORS.PAYMENT_NOT_KNOWN_YET, `${provider} payment ${paymentId} is not known (yet)`, options);
  }
}

type Outcome = Omit<EventResult, 'duplicate'>;

/**
 * Takes back the credits a refunded payment paid for, once per refund id (payment_refunds), in the
 * caller's transaction: from the available balance down to zero, the rest recorded as debt (which
 * blocks new jobs until a payment repays it). Ledger key `<provider>:refund:<refund id>`.
 */
export async function applyRefund(
  deps: { credits: CreditStore; creditedPayments: CreditedPaymentStore },
  client: PoolClient,
  r: RefundRequest,
): Promise<Outcome> {
  const payment = await deps.creditedPayments.lock(client, r.provider, r.paymentId);
  if (!payment) throw new PaymentNotKnownYetError(r.provider, r.paymentId);
  const base = { userId: payment.userId, transactionId: null };
  if (r.currency && r.currency !== payment.currency) {
    return {
      ...base,
      outcome: 'rejected',
      credits: 0,
      detail: `refund currency ${r.currency} is not the payment's ${payment.currency}`,
    };
  }
  const cents = r.amountCents ?? payment.amountCents - payment.refundedCents;
  const claimed = await deps.creditedPayments.claimRefund(client, {
    provider: r.provider,
    refundId: r.refundId,
    paymentId: r.paymentId,
    kind: r.kind,
    amountCents: cents,
  });
  if (!claimed) {
    const first = await deps.creditedPayments.findRefund(client, r.provider, r.refundId);
    return {
      ...base,
      transactionId: first?.transactionId ?? null,
      outcome: 'logged',
      credits: 0,
      detail: `${r.kind} ${r.refundId} was already applied`,
    };
  }
  const moved = await reconcileTakeback(deps, client, payment, refundedAfter(payment, cents), {
    idempotencyKey: `${r.provider}:refund:${r.refundId}`,
    reason:
      `${r.provider === 'paypal' ? 'PayPal' : 'PayFast'} ${r.kind} of payment ${r.paymentId}: ` +
      `${formatCents(cents)} ${payment.currency}`,
    metadata: {
      provider: r.provider,
      eventId: r.eventId,
      refundId: r.refundId,
      paymentId: r.paymentId,
      kind: r.kind,
      amountCents: cents,
    },
  });
  // A refund only adds money gone back: it never reinstates (the totals it raises are capped at the payment).
  const revoked = Math.max(0, moved.delta);
  await deps.creditedPayments.recordRefundTakeback(client, {
    provider: r.provider,
    refundId: r.refundId,
    creditsRevoked: revoked,
    transactionId: moved.transactionId,
  });
  if (revoked === 0)
    return { ...base, outcome: 'logged', credits: 0, detail: `${r.kind} ${r.refundId}: nothing left to take back` };
  const debtNote = moved.debtAdded > 0 ? `; ${moved.debtAdded} already spent, recorded as debt` : '';
  return {
    ...base,
    transactionId: moved.transactionId,
    outcome: 'revoked',
    credits: -revoked,
    detail: `${r.kind} of ${formatCents(cents)} ${payment.currency} took back ${revoked} credits${debtNote}`,
  };
}
