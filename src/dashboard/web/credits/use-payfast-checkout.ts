import { useState } from 'preact/hooks';
import { ApiError } from '../api-client';
import { useSession } from '../context';
import type { CreditPackage, PayFastCheckout } from './credit-types';
import { submitPayFastForm } from './payfast-form';

export interface PayFastCheckoutState {
  /** The package whose checkout is being started or posted, if any (its button shows the progress). */
  packageId: string | null;
  leaving: boolean;
  error: unknown;
  start(pkg: CreditPackage): Promise<void>;
}

/** Starts a PayFast checkout: the server records and signs it, then the browser posts it to PayFast. */
export function usePayFastCheckout(): PayFastCheckoutState {
  const { api } = useSession();
  const [packageId, setPackageId] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const start = async (pkg: CreditPackage) => {
    setPackageId(pkg.id);
    setError(null);
    try {
      const body = await api.post<{ data: PayFastCheckout }>('/api/v1/billing/payfast/checkout', { packageId: pkg.id });
      setLeaving(true);
      submitPayFastForm(body.data, () => {
        setPackageId(null);
        setLeaving(false);
        setError(
          new ApiError(
            `Your browser did not allow this page to send you to PayFast (${new URL(body.data.action).host}): ` +
              `this server's security policy blocks it. Nothing was charged; please contact support.`,
            0,
          ),
        );
      });
    } catch (err) {
      setPackageId(null);
      setLeaving(false);
      setError(
        err instanceof ApiError
          ? new ApiError(`The PayFast checkout for ${pkg.name} could not start. ${err.message}`, err.status, err.code)
          : err,
      );
    }
  };
  return { packageId, leaving, error, start };
}
