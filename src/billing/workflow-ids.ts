/** Workflow ids of billing events: one workflow per provider event, so a resent delivery is one effect. */
import { payfastEventId } from './payfast/payfast-event-id';

/** The provider's event id (body `id`): the same on every retry and resend of one event. */
export const paypalWorkflowId = (eventId: string): string => `paypal:${eventId}`;

/** `payfast:<event id>`: a COMPLETE is the payment; FAILED/CANCELLED get their own ids (payfast-event-id.ts). */
export const payfastWorkflowId = (pfPaymentId: string, paymentStatus: string): string =>
  `payfast:${payfastEventId(pfPaymentId, paymentStatus)}`;

/** A PayFast refund is recorded once per refund id, however often it is submitted. */
export const payfastRefundWorkflowId = (refundId: string): string => `payfast-refund:${refundId}`;
