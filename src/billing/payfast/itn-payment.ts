import type { PayFastItn } from './apply-payfast-itn';

const REQUIRED = ['pf_payment_id', 'payment_status', 'm_payment_id'] as const;

/**
 * The payment a verified ITN's fields describe, read the one way the route and the worker's re-check both use, or
 * the first required field it lacks. The fields (signature included) are kept whole for the inbox.
 */
export function readPayFastPayment(fields: Record<string, string>): PayFastItn | { missing: string } {
  for (const name of REQUIRED) if (!fields[name]?.trim()) return { missing: name };
  return {
    pfPaymentId: (fields.pf_payment_id as string).trim(),
    paymentStatus: (fields.payment_status as string).trim().toUpperCase(),
    mPaymentId: (fields.m_payment_id as string).trim(),
    amountGross: fields.amount_gross ?? null,
    customStr1: fields.custom_str1?.trim() || null,
    fields: { ...fields },
  };
}
