import { SYMBOL_RE } from '../domain/candle';
import { CANDLE_INTERVALS, isCandleInterval, type CandleInterval } from '../domain/intervals';
import { invalidParameter, structuredError, type HttpError } from '../../platform/http/errors';
import { LATEST_INSTANT_MS } from '../../platform/http/date-params';
import { MARKET_ERRORS } from '../error-codes';

/** The latest instant a request may name (ms): the end of year 9999, as for every date parameter. */
export const MAX_TIME_MS = LATEST_INSTANT_MS;
export { DIGITS } from '../../platform/http/common-patterns';
import { DIGITS } from '../../platform/http/common-patterns';

export const EXPECTED = {
  symbol: 'a trading pair in BASE-QUOTE form, e.g. BTC-USD',
  interval: `one of ${CANDLE_INTERVALS.join(', ')}`,
  time: 'an integer number of milliseconds since the Unix epoch (UTC), up to the end of year 9999',
  limit: (max: number) => `an integer from 1 to ${max}`,
} as const;

/** A value that arrived once: `?symbol=a&symbol=b` is an array, and guessing which one was meant hides client bugs. */
function single(value: unknown, parameter: string): unknown {
  if (Array.isArray(value) || (value !== null && typeof value === 'object')) {
    throw invalidParameter(
      parameter,
      'a single value',
      `Parameter "${parameter}" must be given once, as a single value`,
    );
  }
  return value;
}

/** Integers from a query string ("1000") or a JSON body (1000), never "1e3", "10.0" or " 5". */
function integer(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value === 'string' && DIGITS.test(value)) return Number(value);
  return null;
}

export function readSymbol(value: unknown, parameter: string): string {
  const v = single(value, parameter);
  if (v === undefined || v === '')
    throw invalidParameter(parameter, EXPECTED.symbol, `Missing required parameter "${parameter}"`);
  // Case is forgiven (btc-usd is BTC-USD); the shape is not.
  if (typeof v !== 'string' || !SYMBOL_RE.test(v.toUpperCase())) throw invalidParameter(parameter, EXPECTED.symbol);
  return v.toUpperCase();
}

export function readInterval(value: unknown, parameter: string): CandleInterval {
  const v = single(value, parameter);
  if (v === undefined || v === '')
    throw invalidParameter(parameter, EXPECTED.interval, `Missing required parameter "${parameter}"`);
  if (!isCandleInterval(v)) throw invalidParameter(parameter, EXPECTED.interval);
  return v;
}

export function readLimit(value: unknown, parameter: string, limits: { default: number; max: number }): number {
  const v = single(value, parameter);
  if (v === undefined) return limits.default;
  const n = integer(v);
  if (n === null || n < 1 || n > limits.max) throw invalidParameter(parameter, EXPECTED.limit(limits.max));
  return n;
}

export function readTime(value: unknown, parameter: string): number | undefined {
  const v = single(value, parameter);
  if (v === undefined) return undefined;
  const n = integer(v);
  if (n === null || n < 0 || n > MAX_TIME_MS) throw invalidParameter(parameter, EXPECTED.time);
  return n;
}

/** Unknown names are refused: a misspelt `start_time` would otherwise silently return the wrong window. */
export function rejectUnknown(input: Record<string, unknown>, allowed: readonly string[], prefix = ''): void {
  for (const name of Object.keys(input)) {
    if (!allowed.includes(name)) {
      throw invalidParameter(
        `${prefix}${name}`,
        `only ${allowed.map((a) => `${prefix}${a}`).join(', ')}`,
        `Unknown parameter "${prefix}${name}"`,
      );
    }
  }
}

export interface CandleFilters {
  symbol: string;
  interval: CandleInterval;
  startTime?: number;
  endTime?: number;
}

/**
 * symbol, interval, startTime, endTime, validated in that order; `prefix` names them inside a query body ("filters.").
 */
export function readCandleFilters(input: Record<string, unknown>, prefix = ''): CandleFilters {
  const symbol = readSymbol(input.symbol, `${prefix}symbol`);
  const interval = readInterval(input.interval, `${prefix}interval`);
  const startTime = readTime(input.startTime, `${prefix}startTime`);
  const endTime = readTime(input.endTime, `${prefix}endTime`);
  if (startTime !== undefined && endTime !== undefined && endTime <= startTime) {
    throw invalidParameter(`${prefix}endTime`, `greater than ${prefix}startTime (the window is [startTime, endTime))`);
  }
  return { symbol, interval, startTime, endTime };
}

/** 404 in the structured shape, naming the symbols there are. */
export function symbolNotFound(symbol: string, parameter: string, known: readonly string[], where = ''): HttpError {
  return structuredError(MARKET_ERRORS.SYMBOL_NOT_FOUND, `Unknown symbol "${symbol}"${where}`, {
    parameter,
    expected: known.length > 0 ? `one of ${known.join(', ')}` : 'no symbols are loaded',
  });
}
