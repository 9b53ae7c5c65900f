import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Candle, CandleBatch } from '../domain/candle';
import { BUCKET_ORIGIN_SQL, INTERVAL_MS, INTERVAL_SQL, type CandleInterval } from '../domain/intervals';
import { mergeSpans, type Span } from '../domain/ranges';
import { EVERYTHING, planRollups } from '../domain/rollup-plan';
import { AppError } from '../../platform/errors';
import { MARKET_ERRORS } from '../error-codes';

export interface MarketSymbolSpec {
  symbol: string;
  connector: string;
  exchangeSymbol: string;
  market: 'spot' | 'usdm-futures';
}

/** Candles that cannot be stored as given (another venue's symbol, a span the batch does not know): not retryable. */
export class MarketIngestError extends AppError {
  constructor(message: string) {
    super(MARKET_ERRORS.MARKET_SOURCE_REJECTED, message);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Registers the symbol on first sight; afterwards only the same venue and pair may add candles to it. */
async function ensureSymbol(client: PoolClient, spec: MarketSymbolSpec): Promise<void> {
  await client.query(
    `INSERT INTO market_symbols (symbol, connector, exchange_symbol, market) VALUES ($1, $2, $3, $4) ` +
      `ON CONFLICT (symbol) DO NOTHING`,
    [spec.symbol, spec.connector, spec.exchangeSymbol, spec.market],
  );
  const { rows } = await client.query<{ connector: string; exchange_symbol: string }>(
    'SELECT connector, exchange_symbol FROM market_symbols WHERE symbol = $1',
    [spec.symbol],
  );
  const existing = rows[0] as { connector: string; exchange_symbol: string };
  if (existing.connector !== spec.connector || existing.exchange_symbol !== spec.exchangeSymbol) {
    throw new MarketIngestError(
      `${spec.symbol} is served from ${existing.connector} ${existing.exchange_symbol}; ` +
        `refusing candles from ${spec.connector} ${spec.exchangeSymbol}`,
    );
  }
}

/** COPY into a session staging table, then one upsert: ~10× faster than row inserts for whole files. */
async function upsertNative(
  client: PoolClient,
  symbol: string,
  interval: CandleInterval,
  candles: readonly Candle[],
): Promise<number> {
  await client.query(
    `CREATE TEMP TABLE IF NOT EXISTS market_candles_staging
       (ts timestamptz, open numeric, high numeric, low numeric, close numeric, volume numeric, trades integer)`,
  );
  await client.query('TRUNCATE market_candles_staging');
  const csv = candles
    .map((c) => `${iso(c.openTime)},${c.open},${c.high},${c.low},${c.close},${c.volume},${c.trades ?? ''}\n`)
    .join('');
  await pipeline(
    Readable.from([csv]),
    client.query(copyFrom('COPY market_candles_staging FROM STDIN WITH (FORMAT csv)')),
  );
  const { rowCount } = await client.query(
    `INSERT INTO market_candles (symbol, interval, ts, open, high, low, close, volume, trades, origin)
     SELECT $1, $2, ts, open, high, low, close, volume, trades, 'native' FROM market_candles_staging
     ON CONFLICT (symbol, interval, ts) DO UPDATE SET open = EXCLUDED.open, high = EXCLUDED.high, low = EXCLUDED.low,
       close = EXCLUDED.close, volume = EXCLUDED.volume, trades = EXCLUDED.trades, origin = 'native'
     WHERE market_candles.origin <> 'native'
        OR (market_candles.open, market_candles.high, market_candles.low, market_candles.close, ` +
      `market_candles.volume, market_candles.trades)
           IS DISTINCT FROM (EXCLUDED.open, EXCLUDED.high, EXCLUDED.low, EXCLUDED.close, ` +
      `EXCLUDED.volume, EXCLUDED.trades)`,
    [symbol, interval],
  );
  return rowCount ?? 0;
}

/**
 * Records that the native series is known over `span`. Rollup rows of this interval inside it are
 * dropped: the exchange's own buckets (and its own "no trades" gaps) replace them.
 */
async function addKnownSpan(client: PoolClient, symbol: string, interval: CandleInterval, span: Span): Promise<void> {
  const { rows } = await client.query<{ start_ts: Date; end_ts: Date }>(
    'SELECT start_ts, end_ts FROM market_native_ranges WHERE symbol = $1 AND interval = $2',
    [symbol, interval],
  );
  const merged = mergeSpans([...rows.map((r) => ({ start: r.start_ts.getTime(), end: r.end_ts.getTime() })), span]);
  await client.query('DELETE FROM market_native_ranges WHERE symbol = $1 AND interval = $2', [symbol, interval]);
  await client.query(
    `INSERT INTO market_native_ranges (symbol, interval, start_ts, end_ts)
     SELECT $1, $2, s, e FROM unnest($3::timestamptz[], $4::timestamptz[]) AS u(s, e)`,
    [symbol, interval, merged.map((s) => iso(s.start)), merged.map((s) => iso(s.end))],
  );
  await client.query(
    `DELETE FROM market_candles WHERE symbol = $1 AND interval = $2 AND origin = 'rollup' AND ts >= $3 AND ts < $4`,
    [symbol, interval, iso(span.start), iso(span.end)],
  );
}

async function nativeSpans(client: PoolClient, symbol: string): Promise<Partial<Record<CandleInterval, Span[]>>> {
  const { rows } = await client.query<{ interval: CandleInterval; start_ts: Date; end_ts: Date }>(
    'SELECT interval, start_ts, end_ts FROM market_native_ranges WHERE symbol = $1',
    [symbol],
  );
  const spans: Partial<Record<CandleInterval, Span[]>> = {};
  for (const r of rows) {
    spans[r.interval] ??= [];
    spans[r.interval]!.push({ start: r.start_ts.getTime(), end: r.end_ts.getTime() });
  }
  return spans;
}

/**
 * Rebuilds the rollup buckets that touch `window`, finest interval first (each reads the rows the
 * previous step wrote). O = first open, H = max, L = min, C = last close, volume and trades summed,
 * in exact numeric arithmetic; trades stays null when any part lacks it.
 */
export async function refreshRollups(
  client: PoolClient,
  symbol: string,
  window: Span = EVERYTHING,
): Promise<Record<string, number>> {
  const plan = planRollups(await nativeSpans(client, symbol), window);
  const built: Record<string, number> = {};
  for (const step of plan.steps) {
    let rows = 0;
    for (const span of step.spans) {
      const { rowCount } = await client.query(
        `INSERT INTO market_candles (symbol, interval, ts, open, high, low, close, volume, trades, origin)
         SELECT $1, $2, bucket, (array_agg(open ORDER BY ts))[1], max(high), min(low), ` +
          `(array_agg(close ORDER BY ts DESC))[1],
                sum(volume), CASE WHEN count(trades) = count(*) THEN sum(trades)::int END, 'rollup'
         FROM (SELECT date_bin($3::interval, ts, ${BUCKET_ORIGIN_SQL}) AS bucket, ts, open, high, ` +
          `low, close, volume, trades
               FROM market_candles WHERE symbol = $1 AND interval = $4 AND ts >= $5 AND ts < $6) finer
         GROUP BY bucket
         ON CONFLICT (symbol, interval, ts) DO UPDATE SET open = EXCLUDED.open, ` +
          `high = EXCLUDED.high, low = EXCLUDED.low,
           close = EXCLUDED.close, volume = EXCLUDED.volume, trades = EXCLUDED.trades
         WHERE market_candles.origin = 'rollup'`,
        [symbol, step.interval, INTERVAL_SQL[step.interval], step.from, iso(span.start), iso(span.end)],
      );
      rows += rowCount ?? 0;
    }
    built[step.interval] = rows;
  }
  await refreshSeries(client, symbol);
  return built;
}

/** The per-interval summary capabilities lists (first/last bucket, count, whether the exchange published it). */
async function refreshSeries(client: PoolClient, symbol: string): Promise<void> {
  await client.query('DELETE FROM market_series WHERE symbol = $1', [symbol]);
  await client.query(
    `INSERT INTO market_series (symbol, interval, first_ts, last_ts, candles, native)
     SELECT symbol, interval, min(ts), max(ts), count(*), bool_or(origin = 'native')
     FROM market_candles WHERE symbol = $1 GROUP BY symbol, interval`,
    [symbol],
  );
}

/** Serialises writers of one symbol (a file load and a live sync, or two workers' syncs). */
export async function lockSymbol(client: PoolClient, symbol: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtext('market:' || $1))`, [symbol]);
}

/**
 * Stores a batch of native candles (in the caller's transaction) and records where the series is
 * known. Idempotent: the same batch twice changes nothing. With `refresh`, the rollups touching the
 * batch are rebuilt at once; a bulk load passes false and refreshes each symbol once at the end.
 */
export async function ingestCandles(
  client: PoolClient,
  spec: MarketSymbolSpec,
  batch: CandleBatch,
  options: { refresh: boolean },
): Promise<{ candles: number; changed: number; known: Span | null }> {
  await lockSymbol(client, spec.symbol);
  await ensureSymbol(client, spec);
  const { candles, interval } = batch;
  const first = candles[0];
  const last = candles[candles.length - 1];
  const known =
    batch.known ?? (first && last ? { start: first.openTime, end: last.openTime + INTERVAL_MS[interval] } : null);
  if (!known) return { candles: 0, changed: 0, known: null };
  for (const c of candles) {
    if (c.openTime < known.start || c.openTime + INTERVAL_MS[interval] > known.end) {
      throw new MarketIngestError(
        `candle ${iso(c.openTime)} lies outside the batch's known span ${iso(known.start)}..${iso(known.end)}`,
      );
    }
  }
  const changed = candles.length > 0 ? await upsertNative(client, spec.symbol, interval, candles) : 0;
  await addKnownSpan(client, spec.symbol, interval, known);
  if (options.refresh) await refreshRollups(client, spec.symbol, known);
  return { candles: candles.length, changed, known };
}
