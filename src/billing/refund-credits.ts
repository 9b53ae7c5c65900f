/** The part of a payment that refunds have touched so far. */
export interface RefundablePayment {
  amountCents: number;
  credits: number;
  refundedCents: number;
  creditsRevoked: number;
}

export interface RefundPlan {
  /** The payment's refunded total after this refund (capped at what was paid). */
  refundedCents: number;
  /** Credits this refund takes back. */
  revoke: number;
  /** The payment's revoked total after this refund. */
  creditsRevoked: number;
}

/**
 * Credits a refund takes back, in proportion to the money returned. Computed on running totals, so
 * partial refunds add up to exactly the payment's credits once everything is returned, and rounding
 * (down, in the customer's favour) never drifts across several partial refunds.
 */
export function planRefund(payment: RefundablePayment, refundCents: number): RefundPlan {
  const refundedCents = Math.min(payment.amountCents, payment.refundedCents + Math.max(0, refundCents));
  const owed =
    refundedCents >= payment.amountCents
      ? payment.credits
      : Math.floor((payment.credits * refundedCents) / payment.amountCents);
  const creditsRevoked = Math.max(payment.creditsRevoked, Math.min(payment.credits, owed));
  return { refundedCents, revoke: creditsRevoked - payment.creditsRevoked, creditsRevoked };
}
