import { bucketStart, INTERVAL_MS, type CandleInterval } from './intervals';
import { DECIMAL_TEXT_RE, type Candle } from './candle';

/**
 * The three dump layouts we ingest (data/market/SOURCES.md §3):
 * - `kraken-ohlcvt`: Kraken's downloadable OHLCVT files, no header, `time_s,open,high,low,close,volume,trades`;
 * - `binance-export`: a header, `open,high,low,close,volume,quote_volume,trades,close_datetime`, the
 *   close in local time with an offset (open = close + 1 ms − interval);
 * - `binance-kline`: Binance's raw kline CSV (12 columns, header optional), open time in ms, or µs
 *   in the spot archives since 2025.
 */
export const CANDLE_FILE_FORMATS = ['kraken-ohlcvt', 'binance-export', 'binance-kline'] as const;
export type CandleFileFormat = (typeof CANDLE_FILE_FORMATS)[number];

export class CandleFileError extends Error {}

const COUNT = /^\d+$/;
const LOCAL_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([+-])(\d{2}):?(\d{2})|Z)$/;

/** `2024-12-01 00:00:59.999000+01:00` → ms UTC (Date.parse does not promise to read this form). */
export function parseOffsetDateTime(text: string): number {
  const m = LOCAL_DATETIME.exec(text.trim());
  if (!m) throw new CandleFileError(`"${text}" is not a date-time with an offset`);
  const [, y, mo, d, h, mi, s, frac = '', sign, oh = '0', om = '0'] = m;
  const ms = Number(`${frac}000`.slice(0, 3));
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  const offset = (Number(oh) * 60 + Number(om)) * 60_000 * (sign === '-' ? -1 : 1);
  return local - offset;
}

function decimal(value: string | undefined, column: string): string {
  const v = (value ?? '').trim();
  if (!DECIMAL_TEXT_RE.test(v)) throw new CandleFileError(`${column} "${value}" is not a non-negative decimal`);
  return v;
}

function count(value: string | undefined, column: string): number {
  const v = (value ?? '').trim();
  if (!COUNT.test(v)) throw new CandleFileError(`${column} "${value}" is not a count`);
  return Number(v);
}

function parseRow(cols: string[], format: CandleFileFormat, interval: CandleInterval): Candle {
  switch (format) {
    case 'kraken-ohlcvt': {
      if (cols.length !== 7) throw new CandleFileError(`expected 7 columns, got ${cols.length}`);
      return {
        openTime: count(cols[0], 'time') * 1000,
        open: decimal(cols[1], 'open'),
        high: decimal(cols[2], 'high'),
        low: decimal(cols[3], 'low'),
        close: decimal(cols[4], 'close'),
        volume: decimal(cols[5], 'volume'),
        trades: count(cols[6], 'trades'),
      };
    }
    case 'binance-export': {
      if (cols.length !== 8) throw new CandleFileError(`expected 8 columns, got ${cols.length}`);
      return {
        openTime: parseOffsetDateTime(cols[7] as string) + 1 - INTERVAL_MS[interval],
        open: decimal(cols[0], 'open'),
        high: decimal(cols[1], 'high'),
        low: decimal(cols[2], 'low'),
        close: decimal(cols[3], 'close'),
        volume: decimal(cols[4], 'volume'),
        trades: count(cols[6], 'trades'),
      };
    }
    case 'binance-kline': {
      if (cols.length !== 12) throw new CandleFileError(`expected 12 columns, got ${cols.length}`);
      const open = count(cols[0], 'open_time');
      return {
        openTime: open > 1e14 ? Math.floor(open / 1000) : open, // µs in the spot archives since 2025-01-01
        open: decimal(cols[1], 'open'),
        high: decimal(cols[2], 'high'),
        low: decimal(cols[3], 'low'),
        close: decimal(cols[4], 'close'),
        volume: decimal(cols[5], 'volume'),
        trades: count(cols[8], 'count'),
      };
    }
  }
}

const isHeader = (line: string) => /[a-z]/i.test(line.split(',', 1)[0] ?? '');

/** OHLC sanity in exact decimal terms is Postgres's job too; this catches it with a line number. */
function checkOhlc(c: Candle): void {
  const [o, h, l, cl] = [Number(c.open), Number(c.high), Number(c.low), Number(c.close)];
  if (!(l <= Math.min(o, cl) && Math.max(o, cl) <= h))
    throw new CandleFileError(`low ${c.low} / high ${c.high} do not bound open ${c.open} and close ${c.close}`);
}

/**
 * Parses a whole file: every row on the interval's grid, ascending, each bucket once. Any bad line
 * rejects the file with its line number, so a truncated or foreign file never half-loads.
 */
export function parseCandleFile(text: string, format: CandleFileFormat, interval: CandleInterval): Candle[] {
  const lines = text.split(/\r?\n/);
  const candles: Candle[] = [];
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    if (index === 0 && isHeader(line)) return;
    try {
      const candle = parseRow(line.split(','), format, interval);
      if (bucketStart(candle.openTime, interval) !== candle.openTime) {
        throw new CandleFileError(`open ${new Date(candle.openTime).toISOString()} is not on the ${interval} grid`);
      }
      checkOhlc(candle);
      const previous = candles[candles.length - 1];
      if (previous && candle.openTime <= previous.openTime) {
        throw new CandleFileError(`open ${new Date(candle.openTime).toISOString()} is not after the previous row`);
      }
      candles.push(candle);
    } catch (err) {
      if (err instanceof CandleFileError) throw new CandleFileError(`line ${index + 1}: ${err.message}`);
      throw err;
    }
  });
  if (candles.length === 0) throw new CandleFileError('no candles in file');
  return candles;
}
