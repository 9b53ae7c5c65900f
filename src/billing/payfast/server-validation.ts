import { deadline, raceSignal } from '../../platform/abort/deadline';
import { PayFastUnavailableError } from './errors';

export type PayFastMode = 'sandbox' | 'live';

const PAYFAST_ORIGIN: Record<PayFastMode, string> = {
  sandbox: 'https://sandbox.payfast.co.za',
  live: 'https://www.payfast.co.za',
};

export const payfastValidateUrl = (mode: PayFastMode): string => `${PAYFAST_ORIGIN[mode]}/eng/query/validate`;
export const payfastProcessUrl = (mode: PayFastMode): string => `${PAYFAST_ORIGIN[mode]}/eng/process`;

const DEFAULT_TIMEOUT_MS = 10_000;

function reason(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/**
 * Asks PayFast whether it really sent an ITN (docs "Confirm payment", step 5). The param string is the one from
 * itnParamStringForValidation: the received pairs without signature and without the passphrase.
 * Only a clear VALID / INVALID is a verdict; anything else throws PayFastUnavailableError so the caller retries
 * instead of rejecting a genuine payment or accepting an unconfirmed one.
 */
export function createPayFastServerValidator(deps: {
  url: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}): (paramString: string) => Promise<boolean> {
  const doFetch = deps.fetch ?? fetch;
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  return async (paramString) => {
    let status: number;
    let body: string;
    const validation = deadline(timeoutMs);
    try {
      const response = await raceSignal(
        doFetch(deps.url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: paramString,
          // The signal also bounds reading the body, so a server that sends headers and then stalls still times out.
          signal: validation.signal,
          // A redirect would re-send the ITN data to another place; PayFast's endpoint does not redirect.
          redirect: 'error',
        }),
        validation.signal,
      );
      status = response.status;
      body = await raceSignal(response.text(), validation.signal);
    } catch (err) {
      throw new PayFastUnavailableError(`PayFast validate request failed (${reason(err)})`, { cause: err });
    } finally {
      validation.dispose();
    }

    if (status !== 200) throw new PayFastUnavailableError(`PayFast validate answered HTTP ${status}`);
    const answer = (body.split(/\r?\n/, 1)[0] ?? '').trim();
    if (answer === 'VALID') return true;
    if (answer === 'INVALID') return false;
    throw new PayFastUnavailableError(
      `PayFast validate answered neither VALID nor INVALID (${JSON.stringify(answer.slice(0, 40))})`,
    );
  };
}
