import type { Candle } from '../candle';
import { INTERVAL_MS, type CandleInterval } from '../intervals';
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

/** Binance's own maximum for one klines call. */
export const BINANCE_KLINES_LIMIT = 1000;

const LABEL = 'binance';

/** Our intervals are a subset of Binance's and spelled the same (case-sensitive there: 1m is a minute, 1M a month). */
const BINANCE_INTERVAL: Readonly<Record<CandleInterval, string>> = {
  '1m': '1m',
  '5m': '5m',
  '15m': '15m',
  '30m': '30m',
  '1h': '1h',
  '4h': '4h',
  '1d': '1d',
  '1w': '1w',
};

/** Binance's error body is `{"code":-1121,"msg":"Invalid symbol."}`. */
function describeBinanceError(body: unknown): { message: string; code?: number } | undefined {
  if (body && typeof body === 'object' && typeof (body as { msg?: unknown }).msg === 'string') {
    const { code, msg } = body as { code?: unknown; msg: string };
    return typeof code === 'number' ? { message: `${msg} (code ${code})`, code } : { message: msg };
  }
  return undefined;
}

/**
 * One kline row: `[openTime, open, high, low, close, volume, closeTime, quoteVolume, trades,
 * takerBuyBase, takerBuyQuote, ignore]`, times in ms (the REST API; only the spot archive files switched
 * to µs in 2025), prices and volume as strings kept exactly as sent.
 */
function parseRow(row: unknown, interval: CandleInterval, index: number): { candle: Candle; closeTime: number } {
  const where = `${LABEL} kline ${index}`;
  if (!Array.isArray(row) || row.length < 9)
    throw new LiveSourceError(
      `${where}: expected a 12-element array, got ${JSON.stringify(row)?.slice(0, 120)}`,
      false,
    );
  const openTime = onGrid(row[0] as number, interval, where);
  const closeTime = row[6];
  // closeTime = open + interval − 1 ms on every row, the in-progress one included; anything else is a
  // different unit (µs) or a different endpoint.
  if (closeTime !== openTime + INTERVAL_MS[interval] - 1)
    throw new LiveSourceError(
      `${where}: close time ${JSON.stringify(closeTime)} is not open + ${interval} − 1 ms`,
      false,
    );
  return {
    closeTime,
    candle: { openTime, ...ohlcvFields(row, { volume: 5, trades: 8 }, where) },
  };
}

/**
 * Binance spot `GET /api/v3/klines`: closed candles from `since`, one request of up to 1000 rows.
 *
 * known: Binance emits a row for every bucket, a no-trade one included (flat, volume 0), so the answer
 * is complete from the first row it returned up to the end of the last closed one:
 * `[first returned open, last closed open + interval)`; null when no closed candle came back. Nothing
 * is claimed before the first row (before a listing Binance simply has none) or after the last closed
 * one. An exchange-wide outage with no rows would read as no trades, as it does in Binance's own files.
 */
export function createBinanceKlineSource(options: LiveSourceOptions): LiveCandleSource {
  const baseUrl = trimBaseUrl(options.baseUrl);
  const client = createExchangeClient(LABEL, options);
  return {
    connector: 'binance',
    async fetchClosed({ exchangeSymbol, interval, since, now, signal }): Promise<LiveFetchResult> {
      if (!Number.isSafeInteger(since) || since < 0)
        throw new LiveSourceError(`${LABEL}: since ${since} is not a time in ms`, false);
      const url = new URL(`${baseUrl}/api/v3/klines`);
      url.searchParams.set('symbol', exchangeSymbol);
      url.searchParams.set('interval', BINANCE_INTERVAL[interval]);
      url.searchParams.set('startTime', String(since));
      url.searchParams.set('limit', String(BINANCE_KLINES_LIMIT));

      const body = await getJson(url, { label: LABEL, client, signal, describeError: describeBinanceError });
      if (!Array.isArray(body))
        throw new LiveSourceError(
          `${LABEL}: expected an array of klines, got ${JSON.stringify(body)?.slice(0, 200)}`,
          false,
        );

      const rows = body.map((row, index) => parseRow(row, interval, index));
      checkAscending(
        rows.map((r) => r.candle),
        LABEL,
      );
      // A row whose close time has not passed at `now` is still open and would change: never returned.
      const candles = rows.filter((r) => r.closeTime < now && r.candle.openTime >= since).map((r) => r.candle);

      const first = candles[0];
      const last = candles[candles.length - 1];
      return {
        candles,
        known: first && last ? { start: first.openTime, end: last.openTime + INTERVAL_MS[interval] } : null,
      };
    },
  };
}
