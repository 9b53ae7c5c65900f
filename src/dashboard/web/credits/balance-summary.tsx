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
        {balance.debt ? (
          <div class="balance-debt">
            <dt>Owed after a refund</dt>
            <dd data-testid="credits-debt">{balance.debt}</dd>
          </div>
        ) : null}
      </dl>
      {balance.debt ? (
        <p class="notice notice-error">
          Credits were taken back by a refund or reversal after {balance.debt} of them had been spent. New analyses
          start again once a payment covers what is owed.
        </p>
      ) : null}
    </>
  );
}
