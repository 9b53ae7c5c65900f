import { ErrorNotice } from '../components/error-notice';
import type { CreditBalance } from './credit-types';

/** The three figures of the account, as GET /credits/balance and the socket give them. */
export function BalanceSummary({ balance, error }: { balance: CreditBalance | null; error: unknown }) {
  if (!balance) return error ? <ErrorNotice error={error} /> : <p role="status">Loading your balance…</p>;
  return (
    <>
      <ErrorNotice error={error} />
      <dl class="balance-figures" aria-live="polite">
        <div>
          <dt>Available</dt>
          <dd data-testid="credits-available">{balance.available}</dd>
        </div>
        <div>
          <dt>Balance</dt>
          <dd data-testid="credits-balance">{balance.balance}</dd>
        </div>
        <div>
          <dt>Reserved for running jobs</dt>
          <dd data-testid="credits-reserved">{balance.reserved}</dd>
        </div>
      </dl>
    </>
  );
}
