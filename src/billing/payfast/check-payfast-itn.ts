import type { CheckedPayFastItn, PayFastPaymentInput } from '../workflow-types';
import type { PayFastItn } from './apply-payfast-itn';
import { ItnNotAuthenticError, PayFastUnavailableError } from './errors';
import { parseItn, verifyItnSignature } from './itn';
import { readPayFastPayment } from './itn-payment';

export interface PayFastItnCheckDeps {
  /** PAYFAST_MERCHANT_PASSPHRASE: the secret the api verified the ITN with; without it nothing can be re-checked. */
  payfastPassphrase?: string;
  /** PAYFAST_MERCHANT_ID, when configured: an ITN for another merchant is not ours. */
  payfastMerchantId?: string;
  /** PayFast's /eng/query/validate, present when this worker's PAYFAST_SERVER_VALIDATION is on. */
  confirmWithPayFast?: (paramString: string) => Promise<boolean>;
}

/** The parts of an ITN a grant depends on; the workflow input must state them exactly as the signed ITN does. */
const sameFacts = (a: PayFastItn, b: PayFastItn): boolean =>
  a.pfPaymentId === b.pfPaymentId &&
  a.paymentStatus === b.paymentStatus &&
  a.mPaymentId === b.mPaymentId &&
  a.amountGross === b.amountGross &&
  a.customStr1 === b.customStr1;

/**
 * Re-verifies a payment workflow's ITN on the worker instead of trusting its input (anyone who can start a workflow
 * on the Temporal frontend can write any input): the MD5 signature over the signed parameters with this worker's
 * passphrase, the merchant id, and that the input's ITN is the signed one. Then, when this worker has server
 * validation on, asks PayFast to confirm a COMPLETE. Read-only: throws ItnNotAuthenticError (not retryable, nothing
 * recorded) for an ITN that is not PayFast's, PayFastUnavailableError (retried) when PayFast gives no answer.
 */
export async function checkPayFastItn(
  deps: PayFastItnCheckDeps,
  input: Pick<PayFastPaymentInput, 'itn' | 'validationParamString'>,
): Promise<CheckedPayFastItn> {
  if (!deps.payfastPassphrase) {
    throw new PayFastUnavailableError('PAYFAST_MERCHANT_PASSPHRASE is not configured on this worker', {
      retryable: false,
    });
  }
  const signature = input.itn.fields.signature ?? '';
  const signed = `${input.validationParamString}&signature=${encodeURIComponent(signature)}`;
  if (!verifyItnSignature(signed, deps.payfastPassphrase)) {
    throw new ItnNotAuthenticError('the ITN signature does not match its parameters and the passphrase');
  }
  const fields = parseItn(signed).fields;
  if (deps.payfastMerchantId && fields.merchant_id !== deps.payfastMerchantId) {
    throw new ItnNotAuthenticError('the ITN is for another merchant');
  }
  const itn = readPayFastPayment(fields);
  if ('missing' in itn) throw new ItnNotAuthenticError(`the signed ITN has no ${itn.missing}`);
  if (!sameFacts(itn, input.itn)) {
    throw new ItnNotAuthenticError('the workflow input states another payment than its signed ITN');
  }
  if (itn.paymentStatus !== 'COMPLETE' || !deps.confirmWithPayFast) return { itn, refusal: null };
  const confirmed = await deps.confirmWithPayFast(input.validationParamString);
  return { itn, refusal: confirmed ? null : 'PayFast answered INVALID to /eng/query/validate' };
}
