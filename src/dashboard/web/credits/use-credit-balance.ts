import { useCallback, useEffect, useState } from 'preact/hooks';
import { useSession } from '../context';
import { useRealtimeEvent } from '../realtime';
import type { BalanceUpdatedEvent, CreditBalance } from './credit-types';

/**
 * The account's balance, read once and then kept current by the socket: no polling. A grant only moves
 * the total, so the event alone gives the new figures; a charge also settles its hold and a job's
 * start or end moves the reserved part, which the events do not carry, so those re-read the balance.
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
      setBalance((prev) => (prev ? { ...prev, balance: event.balance, available: event.balance - prev.reserved } : prev));
      if (event.delta < 0) void load();
    },
    [load],
  );
  useRealtimeEvent(socket, 'credit_balance_updated', onBalanceUpdated);
  useRealtimeEvent(socket, 'job_status_changed', useCallback(() => void load(), [load]));

  return { balance, error };
}
