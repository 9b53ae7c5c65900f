import type { Pool } from 'pg';
import { INTERVAL_MS, isCandleInterval } from '../domain/intervals';
import type { StoredCloses, StoredCloseSeries } from '../../screening';

/** Quotes that price an asset in dollars, most direct first (stablecoins are taken at their peg). */
export const USD_QUOTES = ['USD', 'USDT', 'USDC'] as const;

/**
 * Daily closes over every stored candle, plus every finer close after the last complete day, so
 * a transfer made minutes after a live-synced candle closed is valued at that candle rather than at
 * yesterday's close. A day's rollup exists only once the day is complete (see market ingest), so the
 * finer rows fill exactly the part of the series the daily rows cannot.
 */
export function createStoredCloses(pool: Pool): StoredCloses {
  return {
    async seriesFor(asset) {
      const symbols = USD_QUOTES.map((q) => `${asset.toUpperCase()}-${q}`);
      const { rows } = await pool.query<{ symbol: string; connector: string; interval: string; t: number; c: number }>({
        name: 'market-closes-for-asset',
        text:
          `WITH last_day AS (
                 SELECT symbol, max(ts) AS ts FROM market_candles WHERE symbol = ANY($1) ` +
          `AND interval = '1d' GROUP BY symbol)
               SELECT m.symbol, s.connector, m.interval, (extract(epoch FROM m.ts) * 1000)::float8 ` +
          `AS t, m.close::float8 AS c
               FROM market_candles m
               JOIN market_symbols s ON s.symbol = m.symbol
               LEFT JOIN last_day d ON d.symbol = m.symbol
               WHERE m.symbol = ANY($1)
                 AND (m.interval = '1d' OR (m.interval <> '1w' AND m.ts >= coalesce(d.ts + interval '1 day', ` +
          `'-infinity'::timestamptz)))`,
        values: [symbols],
      });
      const bySymbol = new Map<string, StoredCloseSeries>();
      for (const r of rows) {
        if (!isCandleInterval(r.interval)) continue;
        const series = bySymbol.get(r.symbol) ?? { symbol: r.symbol, connector: r.connector, points: [] };
        series.points.push({ at: r.t + INTERVAL_MS[r.interval], usd: r.c });
        bySymbol.set(r.symbol, series);
      }
      for (const s of bySymbol.values()) s.points.sort((a, b) => a.at - b.at);
      return symbols.flatMap((symbol) => bySymbol.get(symbol) ?? []);
    },
  };
}
