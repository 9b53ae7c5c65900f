/** Workflow ids of billing events: one workflow per provider event, so a resent delivery is one effect. */

/** The provider's event id (body `id`): the same on every retry and resend of one event. */
export const paypalWorkflowId = (eventId: string): string => `paypal:${eventId}`;

/**
 * A PayFast ITN's event id: a COMPLETE is the payment itself (pf_payment_id); FAILED and CANCELLED get
 * their own ids, so a logged failure can never block the COMPLETE of the same payment. Used for the
 * inbox key and the workflow id alike.
 */
export const payfastEventId = (pfPaymentId: string, paymentStatus: string): string =>
  paymentStatus === 'COMPLETE' ? pfPaymentId : `${pfPaymentId}:${paymentStatus}`;

/** `payfast:<event id>`: a COMPLETE is the payment; FAILED/CANCELLED get their own ids. */
export const payfastWorkflowId = (pfPaymentId: string, paymentStatus: string): string =>
  `payfast:${payfastEventId(pfPaymentId, paymentStatus)}`;

/** A PayFast refund is recorded once per refund id, however often it is submitted. */
export const payfastRefundWorkflowId = (refundId: string): string => `payfast-refund:${refundId}`;
