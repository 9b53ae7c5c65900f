import { useSession } from '../context';
import { BalanceSummary } from '../credits/balance-summary';
import { CreditFeed } from '../credits/credit-feed';
import { GrantForm } from '../credits/grant-form';
import { PackageList } from '../credits/package-list';
import { SubscriptionList } from '../credits/subscription-list';
import { useCreditBalance } from '../credits/use-credit-balance';
import { useCreditFeed } from '../credits/use-credit-feed';
import type { PanelProps } from './panel-props';

/** Balance and live ledger feed, packages to buy, PayPal subscriptions, and (admins) grants. */
export function CreditsPanel(_props: PanelProps) {
  const { me } = useSession();
  const { balance, error } = useCreditBalance();
  const feed = useCreditFeed();
  return (
    <>
      <section aria-labelledby="credits-title">
        <h1 id="credits-title">Credits</h1>
        <BalanceSummary balance={balance} error={error} />
        <h2>Live activity</h2>
        <CreditFeed entries={feed} />
      </section>
      <section aria-labelledby="packages-title">
        <h2 id="packages-title">Buy credits</h2>
        <PackageList />
      </section>
      <section aria-labelledby="subscriptions-title">
        <h2 id="subscriptions-title">PayPal subscriptions</h2>
        <SubscriptionList />
      </section>
      {me.role === 'admin' && (
        <section aria-labelledby="grant-title">
          <h2 id="grant-title">Grant credits</h2>
          <GrantForm />
        </section>
      )}
    </>
  );
}
