import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import type { CreditPackage } from './credit-types';
import { usePayFastCheckout } from './use-payfast-checkout';

const BILLING_WORDS: Record<string, string> = { one_time: 'once', monthly: 'every month', annual: 'every year' };
const PROVIDER_NAMES: Record<string, string> = { paypal: 'PayPal', payfast: 'PayFast' };

/** The packages on sale, with each provider's price exactly as the API states it, and PayFast checkout. */
export function PackageList() {
  const { api } = useSession();
  const [packages, setPackages] = useState<CreditPackage[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const checkout = usePayFastCheckout();

  useEffect(() => {
    api
      .get<{ data: CreditPackage[] }>('/api/v1/credits/packages')
      .then((body) => setPackages(body.data))
      .catch(setError);
  }, [api]);

  if (error) return <ErrorNotice error={error} />;
  if (!packages) return <p role="status">Loading the credit packages…</p>;
  if (packages.length === 0) return <p class="hint">No credit packages are on sale right now.</p>;
  return (
    <>
      <ul class="package-list">
        {packages.map((pkg) => (
          <li key={pkg.id} class="package" data-testid={`package-${pkg.id}`}>
            <h3>{pkg.name}</h3>
            <p class="package-credits">
              {pkg.credits} credits <span class="hint">{BILLING_WORDS[pkg.billing] ?? pkg.billing}</span>
            </p>
            <ul class="package-prices">
              {pkg.prices.map((price) => (
                <li key={price.provider}>
                  <span class="price">
                    {price.currency} {price.amount}
                  </span>{' '}
                  with {PROVIDER_NAMES[price.provider] ?? price.provider}
                  {price.paypalPlanId && (
                    <span class="hint plan-id">
                      PayPal plan <span class="nowrap">{price.paypalPlanId}</span>
                    </span>
                  )}
                </li>
              ))}
            </ul>
            {pkg.prices.some((p) => p.provider === 'payfast') && (
              <button type="button" onClick={() => void checkout.start(pkg)} disabled={checkout.packageId !== null}>
                {checkout.packageId === pkg.id
                  ? checkout.leaving
                    ? 'Opening PayFast…'
                    : 'Starting checkout…'
                  : `Buy ${pkg.name} with PayFast`}
              </button>
            )}
          </li>
        ))}
      </ul>
      {checkout.leaving && <p role="status">Taking you to PayFast to pay…</p>}
      <div class="checkout-error" data-testid="checkout-error">
        <ErrorNotice error={checkout.error} />
      </div>
    </>
  );
}
