import { useCallback, useState } from 'preact/hooks';
import { useSession } from '../context';
import { useRealtimeEvent } from '../realtime';
import { creditsWord, type BalanceUpdatedEvent, type CreditFeedEntry, type CreditsGrantedEvent } from './credit-types';

const FEED_LENGTH = 50;

export function describeFeedEntry(entry: CreditFeedEntry): string {
  const verb = entry.kind === 'grant' ? 'granted' : 'charged';
  return `${creditsWord(entry.amount)} ${verb} (${entry.source}): balance ${entry.balance}`;
}

/**
 * Grants and charges that arrive while the page is open, newest first. A grant sends both
 * `credits_granted` (which names its source and time) and `credit_balance_updated`; only the first is
 * listed, so each grant appears once, and charges come from the second (negative delta).
 */
export function useCreditFeed(): CreditFeedEntry[] {
  const { socket } = useSession();
  const [entries, setEntries] = useState<CreditFeedEntry[]>([]);
  const add = useCallback((entry: CreditFeedEntry) => setEntries((prev) => [entry, ...prev].slice(0, FEED_LENGTH)), []);

  const onGranted = useCallback(
    (e: CreditsGrantedEvent) => add({ id: e.transactionId, kind: 'grant', amount: e.amount, source: e.source, balance: e.balance, at: e.grantedAt }),
    [add],
  );
  const onBalanceUpdated = useCallback(
    (e: BalanceUpdatedEvent) => {
      if (e.delta < 0) add({ id: `charge-${Date.now()}-${e.balance}`, kind: 'charge', amount: -e.delta, source: e.reason, balance: e.balance, at: new Date().toISOString() });
    },
    [add],
  );
  useRealtimeEvent(socket, 'credits_granted', onGranted);
  useRealtimeEvent(socket, 'credit_balance_updated', onBalanceUpdated);
  return entries;
}
