/**
 * The worker's re-check of a payment workflow's ITN: only the signed parameters count, never the input's copy.
 */
import { checkPayFastItn } from '../../src/billing/payfast/check-payfast-itn';
import { ItnNotAuthenticError, PayFastUnavailableError } from '../../src/billing/payfast/errors';
import { itnParamStringForValidation, parseItn } from '../../src/billing/payfast/itn';
import { readPayFastPayment } from '../../src/billing/payfast/itn-payment';
import type { PayFastItn } from '../../src/billing/payfast/apply-payfast-itn';
import { completeItn, signedItn } from '../helpers/billing';
import { PAYFAST_PASSPHRASE } from '../helpers/webhooks';

const body = signedItn(completeItn({ mPaymentId: 'chk-1', pfPaymentId: '2447101', amount: '199.00', customStr1: 'u' }));
const itn = readPayFastPayment(parseItn(body).fields) as PayFastItn;
const input = { itn, validationParamString: itnParamStringForValidation(body) };
const deps = { payfastPassphrase: PAYFAST_PASSPHRASE, payfastMerchantId: '10000100' };

describe('checkPayFastItn', () => {
  test('when the ITN verifies and server validation is off, then the signed ITN is returned to apply', async () => {
    await expect(checkPayFastItn(deps, input)).resolves.toEqual({ itn, refusal: null });
  });

  test.each([
    ['another merchant', { ...deps, payfastMerchantId: '10000999' }, input, /another merchant/],
    ['a changed amount', deps, { ...input, itn: { ...itn, amountGross: '1999.00' } }, /another payment/],
    ['another passphrase', { ...deps, payfastPassphrase: 'not the passphrase' }, input, /signature/],
    [
      'parameters edited after signing',
      deps,
      { ...input, validationParamString: input.validationParamString.replace('199.00', '1999.00') },
      /signature/,
    ],
  ])('when the check meets %s, then ItnNotAuthenticError (not retryable)', async (_case, d, i, message) => {
    const err = await checkPayFastItn(d, i).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ItnNotAuthenticError);
    expect((err as ItnNotAuthenticError).retryable).toBe(false);
    expect((err as Error).message).toMatch(message);
  });

  test('when the worker has no passphrase, then it cannot verify: non-retryable PAYFAST_UNAVAILABLE', async () => {
    const err = await checkPayFastItn({}, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PayFastUnavailableError);
    expect((err as PayFastUnavailableError).retryable).toBe(false);
  });

  test('when server validation is on, then a COMPLETE that PayFast answers INVALID to is refused', async () => {
    const sent: string[] = [];
    const confirmWithPayFast = async (paramString: string) => {
      sent.push(paramString);
      return false;
    };
    await expect(checkPayFastItn({ ...deps, confirmWithPayFast }, input)).resolves.toEqual({
      itn,
      refusal: 'PayFast answered INVALID to /eng/query/validate',
    });
    expect(sent).toEqual([input.validationParamString]);
  });
});
