import { useCallback, useState } from 'preact/hooks';
import { useSession } from '../context';
import { useRealtimeEvent } from '../realtime';
import type { BalanceUpdatedEvent, CreditsGrantedEvent } from './credit-types';
import { creditsWord } from './credits-word';

const FEED_LENGTH = 50;

/** One line of the live feed on the Credits page (view state, made from the two socket events). */
export interface CreditFeedEntry {
  id: string;
  kind: 'grant' | 'charge' | 'revoke';
  amount: number;
  source: string;
  balance: number;
  at: string;
  /** Grants: the part that paid off debt. Take-backs: the part that became debt. */
  debt?: number;
}

const VERBS: Record<CreditFeedEntry['kind'], string> = { grant: 'granted', charge: 'charged', revoke: 'taken back' };

/** "10 credits granted (admin): balance 17", also read out when it arrives. */
export function describeFeedEntry(entry: CreditFeedEntry): string {
  const debt = entry.debt
    ? entry.kind === 'grant'
      ? `, ${entry.debt} of them repaid debt`
      : `, ${entry.debt} more now owed`
    : '';
  return `${creditsWord(entry.amount)} ${VERBS[entry.kind]} (${entry.source})${debt}: balance ${entry.balance}`;
}

/**
 * Grants, charges and refund take-backs that arrive while the page is open, newest first. A grant
 * sends both `credits_granted` (which names its source and time) and `credit_balance_updated`; only the
 * first is listed, so each grant appears once. Charges and take-backs come from the second.
 */
export function useCreditFeed(): CreditFeedEntry[] {
  const { socket } = useSession();
  const [entries, setEntries] = useState<CreditFeedEntry[]>([]);
  const add = useCallback((entry: CreditFeedEntry) => setEntries((prev) => [entry, ...prev].slice(0, FEED_LENGTH)), []);

  const onGranted = useCallback(
    (e: CreditsGrantedEvent) =>
      add({
        id: e.transactionId,
        kind: 'grant',
        amount: e.amount,
        source: e.source,
        balance: e.balance,
        at: e.grantedAt,
        debt: e.debtRepaid,
      }),
    [add],
  );
  const onBalanceUpdated = useCallback(
    (e: BalanceUpdatedEvent) => {
      const kind = e.debtAdded !== undefined ? 'revoke' : e.delta < 0 ? 'charge' : null;
      if (kind)
        add({
          id: `${kind}-${Date.now()}-${e.balance}`,
          kind,
          amount: -e.delta,
          source: e.reason,
          balance: e.balance,
          at: new Date().toISOString(),
          debt: e.debtAdded,
        });
    },
    [add],
  );
  useRealtimeEvent(socket, 'credits_granted', onGranted);
  useRealtimeEvent(socket, 'credit_balance_updated', onBalanceUpdated);
  return entries;
}
