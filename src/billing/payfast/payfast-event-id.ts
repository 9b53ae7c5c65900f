/**
 * A PayFast ITN's event id: a COMPLETE is the payment itself (pf_payment_id); FAILED and CANCELLED get
 * their own ids, so a logged failure can never block the COMPLETE of the same payment. Used for the
 * inbox key and the workflow id alike. Pure: the API and the worker both import it.
 */
export const payfastEventId = (pfPaymentId: string, paymentStatus: string): string =>
  paymentStatus === 'COMPLETE' ? pfPaymentId : `${pfPaymentId}:${paymentStatus}`;
