import { useCallback, useEffect, useState } from 'preact/hooks';
import { useSession } from '../context';
import { useRealtimeEvent } from '../realtime';
import type { BalanceUpdatedEvent, CreditBalance, CreditsGrantedEvent } from './credit-types';

/**
 * The account's balance, read once and then kept current by the socket: no polling. A plain grant only
 * moves the total, so the event alone gives the new figures. A charge also consumes its hold, a job's
 * start or end moves the reserved part, and a refund or a grant that repays debt moves the debt; the
 * events do not carry those, so they re-read the balance.
 */
export function useCreditBalance(): { balance: CreditBalance | null; error: unknown } {
  const { api, socket } = useSession();
  const [balance, setBalance] = useState<CreditBalance | null>(null);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(async () => {
    try {
      const body = await api.get<{ data: CreditBalance }>('/api/v1/credits/balance');
      setBalance(body.data);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [api]);

  useEffect(() => void load(), [load]);

  const onBalanceUpdated = useCallback(
    (event: BalanceUpdatedEvent) => {
      setBalance((prev) =>
        prev ? { ...prev, balance: event.balance, available: event.balance - prev.reserved } : prev,
      );
      if (event.delta < 0 || event.debtAdded !== undefined) void load();
    },
    [load],
  );
  useRealtimeEvent(socket, 'credit_balance_updated', onBalanceUpdated);
  useRealtimeEvent(
    socket,
    'credits_granted',
    useCallback((event: CreditsGrantedEvent) => void (event.debtRepaid ? load() : undefined), [load]),
  );
  useRealtimeEvent(
    socket,
    'job_status_changed',
    useCallback(() => void load(), [load]),
  );

  return { balance, error };
}
