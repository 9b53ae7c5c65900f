import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import { utcMinuteOrDash } from '../markets/utc-time';
import type { Subscription } from './credit-types';

/** The account's PayPal subscriptions, with a failed payment called out (requests then get 402). */
export function SubscriptionList() {
  const { api } = useSession();
  const [subscriptions, setSubscriptions] = useState<Subscription[] | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    api
      .get<{ data: Subscription[] }>('/api/v1/billing/subscriptions')
      .then((body) => setSubscriptions(body.data))
      .catch(setError);
  }, [api]);

  if (error) return <ErrorNotice error={error} />;
  if (!subscriptions) return <p role="status">Loading your subscriptions…</p>;
  if (subscriptions.length === 0) return <p class="hint">This account has no PayPal subscriptions.</p>;
  return (
    <div class="table-scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">Subscription</th>
            <th scope="col">Status</th>
            <th scope="col">Package</th>
            <th scope="col">Next billing</th>
            <th scope="col">Payments</th>
          </tr>
        </thead>
        <tbody>
          {subscriptions.map((s) => (
            <tr key={s.subscriptionId}>
              <td class="mono">{s.subscriptionId}</td>
              <td>{s.cancelledAt ? `${s.status} (cancelled ${utcMinuteOrDash(s.cancelledAt)})` : s.status}</td>
              <td>
                {s.packageId ?? '—'}
                {s.planId && <div class="hint mono">{s.planId}</div>}
              </td>
              <td>{utcMinuteOrDash(s.nextBillingTime)}</td>
              <td class={s.paymentFailed ? 'payment-failed' : undefined}>
                {s.paymentFailed
                  ? `Last payment failed${s.lastFailureReason ? `: ${s.lastFailureReason}` : ''}. ` +
                    `Update your payment method at PayPal.`
                  : 'Up to date'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
