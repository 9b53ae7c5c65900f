/** Every workflow id is built here, so the API, the worker and operators agree on them. */
export const screeningWorkflowId = (requestId: string): string => `screening:${requestId}`;

/** The provider's event id (body `id`): the same on every retry and resend of one event. */
export const paypalWorkflowId = (eventId: string): string => `paypal:${eventId}`;

/** A COMPLETE is the payment; FAILED/CANCELLED get their own ids so they never block a later COMPLETE. */
export const payfastWorkflowId = (pfPaymentId: string, paymentStatus: string): string =>
  paymentStatus === 'COMPLETE' ? `payfast:${pfPaymentId}` : `payfast:${pfPaymentId}:${paymentStatus}`;

/** svix-id: the same on every delivery attempt of one Clerk message. */
export const clerkWorkflowId = (svixId: string): string => `clerk:${svixId}`;
