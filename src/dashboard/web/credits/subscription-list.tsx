import { useEffect, useState } from 'preact/hooks';
import { type Column, DataTable } from '../components/data-table';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import { utcMinuteOrDash } from '../markets/utc-time';
import type { Subscription } from './credit-types';

const COLUMNS: Column<Subscription>[] = [
  { header: 'Subscription', cell: (s) => s.subscriptionId, class: 'mono' },
  {
    header: 'Status',
    cell: (s) => (s.cancelledAt ? `${s.status} (cancelled ${utcMinuteOrDash(s.cancelledAt)})` : s.status),
  },
  {
    header: 'Package',
    cell: (s) => (
      <>
        {s.packageId ?? '—'}
        {s.planId && <div class="hint mono">{s.planId}</div>}
      </>
    ),
  },
  { header: 'Next billing', cell: (s) => utcMinuteOrDash(s.nextBillingTime) },
  {
    header: 'Payments',
    class: (s) => (s.paymentFailed ? 'payment-failed' : undefined),
    cell: (s) =>
      s.paymentFailed
        ? `Last payment failed${s.lastFailureReason ? `: ${s.lastFailureReason}` : ''}. ` +
          `Update your payment method at PayPal.`
        : 'Up to date',
  },
];

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
  return (
    <DataTable
      columns={COLUMNS}
      rows={subscriptions}
      rowKey={(s) => s.subscriptionId}
      empty="This account has no PayPal subscriptions."
    />
  );
}
