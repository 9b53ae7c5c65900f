import { useEffect, useState } from 'preact/hooks';
import { useSession } from '../context';
import type { CandlesAnswer } from './market-types';
import type { CandleSelection } from './selection';

/**
 * The candles of the current selection. An answer that arrives after the selection changed again is
 * dropped, so a slow earlier request can never overwrite the chart of a later one.
 */
export function useCandles(selection: CandleSelection | null): {
  answer: CandlesAnswer | null;
  loading: boolean;
  error: unknown;
  retry: () => void;
} {
  const { api } = useSession();
  const [answer, setAnswer] = useState<CandlesAnswer | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const { symbol, interval, limit } = selection ?? {};

  useEffect(() => {
    if (!symbol || !interval || !limit) return undefined;
    let current = true;
    setLoading(true);
    setError(null);
    const query = new URLSearchParams({ symbol, interval, limit: String(limit) });
    api
      .get<CandlesAnswer>(`/api/v1/market-data/candles?${query}`)
      .then((body) => current && setAnswer(body))
      .catch((err: unknown) => {
        if (!current) return;
        setAnswer(null);
        setError(err);
      })
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [api, symbol, interval, limit, attempt]);

  return { answer, loading, error, retry: () => setAttempt((n) => n + 1) };
}
