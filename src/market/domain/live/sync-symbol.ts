import type { Pool } from 'pg';
import { ingestCandles } from '../../store/market-ingest';
import { inTransaction } from '../../../platform/db/transaction';
import { bucketStart, INTERVAL_MS, type CandleInterval } from '../intervals';
import type { LiveCandleSource } from './live-source';

export interface SyncTarget {
  connector: 'binance' | 'kraken';
  symbol: string;
  exchangeSymbol: string;
  interval: CandleInterval;
  /** How far back a first sync (or one after a long pause) reaches, in buckets. */
  backfillCandles: number;
}

export interface SyncResult {
  symbol: string;
  requests: number;
  candles: number;
  /** Where the native series is now known up to (ms), null when nothing was fetched. */
  knownUntil: number | null;
}

/** A first sync needs a few pages (1000 candles each at Binance); later polls need one. */
const MAX_PAGES = 20;

/**
 * Appends the exchange's closed candles since the end of what is stored, page by page, each page
 * in its own transaction with its rollups. Resumes from the database, so a retried or restarted
 * sync neither skips nor duplicates a bucket; a gap older than the backfill stays unknown (not
 * "no trades"), because it becomes a separate known span.
 */
export async function syncSymbol(
  deps: { pool: Pool; source: LiveCandleSource; now: () => number; signal?: AbortSignal },
  t: SyncTarget,
): Promise<SyncResult> {
  const size = INTERVAL_MS[t.interval];
  const { rows } = await deps.pool.query<{ end_ts: Date | null }>(
    'SELECT max(end_ts) AS end_ts FROM market_native_ranges WHERE symbol = $1 AND interval = $2',
    [t.symbol, t.interval],
  );
  const now = deps.now();
  const floor = bucketStart(now, t.interval) - t.backfillCandles * size;
  let since = Math.max(rows[0]?.end_ts?.getTime() ?? floor, floor);
  const result: SyncResult = { symbol: t.symbol, requests: 0, candles: 0, knownUntil: null };
  for (let page = 0; page < MAX_PAGES && since + size <= now; page++) {
    result.requests++;
    const fetched = await deps.source.fetchClosed({
      exchangeSymbol: t.exchangeSymbol,
      interval: t.interval,
      since,
      now,
      signal: deps.signal,
    });
    if (!fetched.known || fetched.known.end <= since) break;
    const known = fetched.known;
    await inTransaction(deps.pool, (client) =>
      ingestCandles(
        client,
        { symbol: t.symbol, connector: t.connector, exchangeSymbol: t.exchangeSymbol, market: 'spot' },
        { interval: t.interval, candles: fetched.candles, known },
        { refresh: true },
      ),
    );
    result.candles += fetched.candles.length;
    result.knownUntil = known.end;
    since = known.end;
  }
  return result;
}
