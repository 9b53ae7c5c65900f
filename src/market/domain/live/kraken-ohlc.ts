import type { Candle } from '../candle';
import { bucketCeil, bucketStart, INTERVAL_MS, type CandleInterval } from '../intervals';
import {
  checkAscending,
  createExchangeClient,
  getJson,
  LiveSourceError,
  ohlcvFields,
  onGrid,
  trimBaseUrl,
  type LiveCandleSource,
  type LiveFetchResult,
  type LiveSourceOptions,
} from './live-source';

const LABEL = 'kraken';

/** Kraken's `interval` parameter is in minutes. */
const KRAKEN_MINUTES: Readonly<Record<CandleInterval, number>> = {
  '1m': 1,
  '5m': 5,
  '15m': 15,
  '30m': 30,
  '1h': 60,
  '4h': 240,
  '1d': 1440,
  '1w': 10080,
};

/**
 * "Returns up to 720 of the most recent entries (older data cannot be retrieved, regardless of the
 * value of since)" — a window of 720 buckets ending with the current one: ccxt#5682 shows a 1m call at
 * 05:02:18 answering buckets 17:03 … 05:02, 707–711 rows because no-trade minutes are left out.
 */
export const KRAKEN_OHLC_WINDOW = 720;

/** Kraken failures that are about load or availability, not the request: worth the same request again. */
const RETRYABLE_KRAKEN_ERRORS = [
  /^EService:/,
  /^EGeneral:Too many requests/,
  /^EAPI:Rate limit exceeded/,
  /^EGeneral:Internal error/,
];

/**
 * Kraken answers failures with HTTP 200 and a non-empty `error` array, e.g.
 * `{"error":["EQuery:Unknown asset pair"]}`, often with no `result` at all.
 */
function checkKrakenBody(body: unknown): void {
  const errors = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  if (!Array.isArray(errors))
    throw new LiveSourceError(`${LABEL}: answer has no error array: ${JSON.stringify(body)?.slice(0, 200)}`, false);
  if (errors.length === 0) return;
  const messages = errors.map(String);
  const retryable = messages.every((m) => RETRYABLE_KRAKEN_ERRORS.some((re) => re.test(m)));
  throw new LiveSourceError(`${LABEL} GET /0/public/OHLC: ${messages.join('; ')}`, retryable, {
    exchangeCode: messages.join('; '),
  });
}

/** Kraken's non-2xx bodies (rare; Cloudflare pages mostly) may still carry the usual error array. */
function describeKrakenError(body: unknown): { message: string; code?: string } | undefined {
  const errors = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  if (Array.isArray(errors) && errors.length > 0)
    return { message: errors.map(String).join('; '), code: errors.map(String).join('; ') };
  return undefined;
}

/** Row = `[time (s), open, high, low, close, vwap, volume, count]`. */
function parseRow(row: unknown, interval: CandleInterval, index: number): Candle {
  const where = `${LABEL} OHLC row ${index}`;
  if (!Array.isArray(row) || row.length < 8)
    throw new LiveSourceError(
      `${where}: expected an 8-element array, got ${JSON.stringify(row)?.slice(0, 120)}`,
      false,
    );
  const seconds = row[0];
  if (typeof seconds !== 'number' || !Number.isSafeInteger(seconds))
    throw new LiveSourceError(`${where}: time ${JSON.stringify(seconds)} is not whole seconds`, false);
  // Position 5 is the VWAP, which our candles do not carry.
  return { openTime: onGrid(seconds * 1000, interval, where), ...ohlcvFields(row, { volume: 6, trades: 7 }, where) };
}

/**
 * The result is keyed by Kraken's own pair name, which is often not the one asked for (XBTUSD comes
 * back as XXBTZUSD), next to `last`. Take the one array entry that is not `last`.
 */
function seriesOf(body: unknown, exchangeSymbol: string): { rows: unknown[]; last: number | null } {
  const result = (body as { result?: unknown }).result;
  if (!result || typeof result !== 'object') throw new LiveSourceError(`${LABEL}: answer has no result object`, false);
  const entries = Object.entries(result as Record<string, unknown>).filter(
    ([key, value]) => key !== 'last' && Array.isArray(value),
  );
  const picked = entries.length === 1 ? entries[0] : entries.find(([key]) => key === exchangeSymbol);
  if (!picked)
    throw new LiveSourceError(
      `${LABEL}: expected one OHLC series in the result, found ${entries.map(([k]) => k).join(', ') || 'none'}`,
      false,
    );
  // `last` is a number in today's answers and a string in some recorded ones ("1706796000").
  const lastRaw = (result as { last?: unknown }).last;
  const last =
    typeof lastRaw === 'number' || (typeof lastRaw === 'string' && /^\d+$/.test(lastRaw)) ? Number(lastRaw) : null;
  return { rows: picked[1] as unknown[], last };
}

/**
 * Kraken `GET /0/public/OHLC`: closed, committed candles from `since`, one request.
 *
 * Request: `since` is sent one interval early (in seconds). Kraken returns candles *after* `since`
 * ("return candles after this time"), so sending the bucket's own open could leave that bucket out
 * while `known` claims it; ccxt's kraken.fetchOHLCV subtracts one timeframe for the same reason. The
 * extra row is filtered out here.
 *
 * Rows: the last entry is always present and is "the current, not-yet-committed timeframe", so it is
 * dropped even when `now` says it has closed (our clock may be ahead of the answer, or the answer
 * cached). Rows after `last` (the last committed bucket) and rows not closed at `now` are dropped too.
 *
 * known: Kraken leaves out buckets without trades, so completeness comes from the request window, not
 * from the rows. With K the open of the final (current) entry:
 * - start = max(since rounded up to the grid, K − 719 intervals): Kraken only serves the 720 buckets
 *   ending at K, so anything older is unknown, not empty, and must come from the downloadable files;
 * - end = min(open of the bucket in progress at `now`, K, last + interval). K is Kraken's own idea of
 *   "now": buckets from K on are either still open there or not yet reported, whatever our clock says;
 *   and nothing at or after the in-progress bucket at `now` is closed for us. "The bucket after the
 *   last closed row" is never later than this and would under-claim trailing no-trade buckets, so it is
 *   not used. Taking the minimum keeps every returned candle inside known and claims no bucket that
 *   Kraken might still add a trade to.
 * An answer with no rows at all (documented never to happen) gives no K, so known is null.
 */
export function createKrakenOhlcSource(options: LiveSourceOptions): LiveCandleSource {
  const baseUrl = trimBaseUrl(options.baseUrl);
  const client = createExchangeClient(LABEL, options);
  return {
    connector: 'kraken',
    async fetchClosed({ exchangeSymbol, interval, since, now, signal }): Promise<LiveFetchResult> {
      if (!Number.isSafeInteger(since) || since < 0)
        throw new LiveSourceError(`${LABEL}: since ${since} is not a time in ms`, false);
      const size = INTERVAL_MS[interval];
      const url = new URL(`${baseUrl}/0/public/OHLC`);
      url.searchParams.set('pair', exchangeSymbol);
      url.searchParams.set('interval', String(KRAKEN_MINUTES[interval]));
      url.searchParams.set('since', String(Math.max(0, Math.floor(since / 1000) - size / 1000)));

      const body = await getJson(url, {
        label: LABEL,
        client,
        signal,
        check: checkKrakenBody,
        describeError: describeKrakenError,
      });
      const { rows, last } = seriesOf(body, exchangeSymbol);
      const all = rows.map((row, index) => parseRow(row, interval, index));
      checkAscending(all, LABEL);

      const current = all[all.length - 1];
      if (!current) return { candles: [], known: null };
      const committedUntil = last === null ? Infinity : last * 1000; // open of the last committed bucket
      const candles = all
        .slice(0, -1)
        .filter((c) => c.openTime >= since && c.openTime <= committedUntil && c.openTime + size <= now);

      const start = Math.max(bucketCeil(since, interval), current.openTime - (KRAKEN_OHLC_WINDOW - 1) * size);
      const end = Math.min(bucketStart(now, interval), current.openTime, committedUntil + size);
      return { candles, known: start < end ? { start, end } : null };
    },
  };
}
