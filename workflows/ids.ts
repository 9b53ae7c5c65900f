/** Every workflow id is built here, so the API, the worker and operators agree on them. */
import { payfastEventId } from '../src/billing/payfast-event-id';
export const screeningWorkflowId = (requestId: string): string => `screening:${requestId}`;

/** The provider's event id (body `id`): the same on every retry and resend of one event. */
export const paypalWorkflowId = (eventId: string): string => `paypal:${eventId}`;

/** `payfast:<event id>`: a COMPLETE is the payment; FAILED/CANCELLED get their own ids (payfast-event-id.ts). */
export const payfastWorkflowId = (pfPaymentId: string, paymentStatus: string): string => `payfast:${payfastEventId(pfPaymentId, paymentStatus)}`;

/** svix-id: the same on every delivery attempt of one Clerk message. */
export const clerkWorkflowId = (svixId: string): string => `clerk:${svixId}`;

/** One live candle sync per exchange, cluster-wide: a later start replaces the running one (its config wins). */
export const marketSyncWorkflowId = (connector: string): string => `market-sync:${connector}`;

/** A PayFast refund is recorded once per refund id, however often it is submitted. */
export const payfastRefundWorkflowId = (refundId: string): string => `payfast-refund:${refundId}`;

/** The schedule that sweeps queued jobs, one per task queue (its runs get `<id>-<timestamp>` workflow ids). */
export const queuedJobSweeperScheduleId = (taskQueue: string): string => `queued-job-sweeper:${taskQueue}`;
