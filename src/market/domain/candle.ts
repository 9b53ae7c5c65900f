import type { CandleInterval } from './intervals';

/** Our pair names, BASE-QUOTE in upper case (also the CHECK on market_symbols.symbol). */
import { SYMBOL_PATTERN } from '../../platform/http/common-patterns';

export { SYMBOL_PATTERN };
export const SYMBOL_RE = new RegExp(`^${SYMBOL_PATTERN}$`);

/**
 * A price or volume as sources write it, scientific notation included (Kraken writes `1E+1`); Postgres `numeric` reads
 * all of them.
 */
export const DECIMAL_TEXT_RE = /^\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * One OHLCV bucket as a source published it. Prices and volume stay decimal strings until Postgres
 * `numeric` stores them, so no float rounding happens before the sums of a rollup.
 */
export interface Candle {
  /** Bucket open, ms since the Unix epoch (UTC). */
  openTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  /** Trade count; null when the source does not publish it. */
  trades: number | null;
}

/** A batch of native candles with the span they are known for: inside it a missing bucket means "no trades". */
export interface CandleBatch {
  interval: CandleInterval;
  candles: Candle[];
  /** Half-open [start, end) in ms. Defaults to [first open, last open + interval). */
  known?: { start: number; end: number };
}

/** A candle as the API returns it (spec 2.5). */
export interface CandleView {
  timestamp: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  trades: number | null;
}
