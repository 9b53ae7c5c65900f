/** How much of a payment's credits stands taken back, from the money that went back. */
export interface RefundablePayment {
  amountCents: number;
  credits: number;
  /** Refunds and reversals so far (capped at the payment). */
  refundedCents: number;
  /** Credits taken back now (refunds, reversals, disputes not won). */
  creditsRevoked: number;
}

/**
 * The credits that stand taken back when `returnedCents` of the payment's money went back (refunded, reversed, or
 * held by a dispute that is open or lost): in proportion, rounded down (in the customer's favour) until all of it
 * went back, then all of them. A function of the totals only, so any order of the same refunds and disputes ends
 * with the same credits taken back, and partial refunds add up to exactly the payment's credits.
 */
export function creditsToTakeBack(payment: Pick<RefundablePayment, 'amountCents' | 'credits'>, returnedCents: number) {
  const returned = Math.min(payment.amountCents, Math.max(0, returnedCents));
  return returned >= payment.amountCents
    ? payment.credits
    : Math.floor((payment.credits * returned) / payment.amountCents);
}

/** A refund's effect on the payment's running refunded total (capped at what was paid). */
export const refundedAfter = (payment: Pick<RefundablePayment, 'amountCents' | 'refundedCents'>, refundCents: number) =>
  Math.min(payment.amountCents, payment.refundedCents + Math.max(0, refundCents));

/**
 * Credits to move so that what stands taken back matches the money gone back: positive = take back, negative =
 * reinstate (a dispute won). `refundedCents` and `disputedCents` are the totals after the event.
 */
export function takebackChange(
  payment: Pick<RefundablePayment, 'amountCents' | 'credits' | 'creditsRevoked'>,
  totals: { refundedCents: number; disputedCents: number },
): { creditsRevoked: number; delta: number } {
  const creditsRevoked = creditsToTakeBack(payment, totals.refundedCents + totals.disputedCents);
  return { creditsRevoked, delta: creditsRevoked - payment.creditsRevoked };
}
