import { DECIMAL_TEXT_RE, type Candle } from '../candle';
import {
  createHttpClient,
  HttpGiveUpError,
  snippet,
  type Classifier,
  type HttpClient,
  type RetryPolicy as HttpRetryPolicy,
} from '../../../platform/http-client/http-client';
import { bucketStart, type CandleInterval } from '../intervals';
import { AppError } from '../../../platform/errors';
import { MARKET_ERRORS } from '../../error-codes';

export interface LiveFetchResult {
  candles: Candle[];
  /** Half-open span in ms these candles are complete for: inside it a missing bucket means no trades. */
  known: { start: number; end: number } | null;
}

export interface LiveCandleSource {
  readonly connector: 'binance' | 'kraken';
  /**
   * Closed candles with openTime >= since, ascending, one request; the in-progress bucket
   * (openTime + interval > now) is never returned.
   *
   * `now` must be read before the call: it is then a lower bound of the exchange's clock when it
   * built the answer, so a bucket closed at `now` was closed in the answer too.
   */
  fetchClosed(args: {
    exchangeSymbol: string;
    interval: CandleInterval;
    since: number;
    now: number;
    signal?: AbortSignal;
  }): Promise<LiveFetchResult>;
}

export interface LiveSourceErrorDetails {
  /** HTTP status of the last answer, when there was one. */
  status?: number;
  /** The exchange's own error code or strings, e.g. -1121 or "EQuery:Unknown asset pair". */
  exchangeCode?: string | number;
  /** Set when the exchange said how long to wait and that was longer than we wait inside one call. */
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * Anything that kept a live fetch from producing candles. `retryable` says whether the same request
 * may succeed later (rate limit, 5xx, network, timeout, Kraken's EService errors); false means a
 * request or configuration problem (unknown symbol, bad interval, malformed answer, caller abort).
 */
export class LiveSourceError extends AppError {
  /** The exchange's HTTP status. */
  readonly status?: number;
  readonly exchangeCode?: string | number;
  readonly retryAfterMs?: number;

  constructor(message: string, retryable: boolean, details: LiveSourceErrorDetails = {}) {
    super(MARKET_ERRORS.MARKET_SOURCE_REJECTED, message, { retryable, cause: details.cause });
    this.status = details.status;
    this.exchangeCode = details.exchangeCode;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** What every live source is built from. */
export interface LiveSourceOptions {
  /** e.g. https://api.binance.com (or the keyless mirror https://data-api.binance.vision), https://api.kraken.com */
  baseUrl: string;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
  retry?: RetryPolicy;
  /** Requests per second to this exchange, shared by every call of the source (default: unlimited). */
  ratePerSecond?: number;
}

/** Backoff and Retry-After limits of one call (the shared HTTP client's policy). */
export type RetryPolicy = HttpRetryPolicy;

/** One exchange's client (its rate limit, timeout and retry policy), created once per source. */
export function createExchangeClient(label: string, options: LiveSourceOptions): HttpClient {
  return createHttpClient({
    name: label,
    timeoutMs: options.timeoutMs ?? 10_000,
    retry: options.retry,
    fetch: options.fetch,
    ratePerSecond: options.ratePerSecond,
  });
}

export interface GetJsonOptions {
  /** Prefix of every error message, e.g. "binance". */
  label: string;
  client: HttpClient;
  signal?: AbortSignal;
  /** The exchange's message (and code) from a non-2xx body, for the error. */
  describeError?: (body: unknown) => { message: string; code?: string | number } | undefined;
  /**
   * Reads a 2xx body. Throw a LiveSourceError to fail: retryable ones are retried like a 5xx
   * (Kraken reports EService:Unavailable inside an HTTP 200).
   */
  check?: (body: unknown) => void;
}

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), in ms; null when absent or unreadable. */
export { parseRetryAfter } from '../../../platform/http-client/retry-after';

/**
 * The exchanges' rules for one answer: a 2xx JSON body that passes `check` is the value; 429 and 5xx
 * are retried (after Retry-After when sent); 418 is Binance's IP ban for calling on after a 429, so it
 * is never retried here, only reported; any other 4xx fails at once with the exchange's message.
 */
function exchangeRules(o: GetJsonOptions): Classifier<unknown> {
  return (answer, where) => {
    if (answer.status >= 200 && answer.status < 300) {
      if (answer.json === undefined)
        return {
          kind: 'fail',
          reason: `${where}: HTTP ${answer.status} with a body that is not JSON: ${snippet(answer.text)}`,
          status: answer.status,
        };
      try {
        o.check?.(answer.json);
      } catch (err) {
        if (!(err instanceof LiveSourceError)) throw err;
        return err.retryable
          ? { kind: 'retry', reason: err.message, code: err.exchangeCode }
          : { kind: 'fail', reason: err.message, code: err.exchangeCode, status: err.status };
      }
      return { kind: 'ok', value: answer.json };
    }
    const described = answer.json === undefined ? undefined : o.describeError?.(answer.json);
    const reason = `${where}: HTTP ${answer.status} ${described ? described.message : snippet(answer.text)}`;
    const details = { status: answer.status, code: described?.code };
    if (answer.status === 418)
      return {
        kind: 'fail',
        reason: `${reason}; retry after ${answer.retryAfterMs ?? 'unknown'} ms`,
        ...details,
        retryableLater: true,
        afterMs: answer.retryAfterMs ?? undefined,
      };
    if (answer.status === 429 || answer.status >= 500)
      return { kind: 'retry', reason, ...details, afterMs: answer.retryAfterMs, rateLimited: answer.status === 429 };
    return { kind: 'fail', reason, ...details };
  };
}

/**
 * GET one JSON document through the shared HTTP client (per-attempt timeout, jittered retries that
 * honour Retry-After up to maxRetryAfterMs) under the exchanges' rules above; every failure comes back
 * as a LiveSourceError whose `retryable` says whether the next round may succeed.
 */
export async function getJson(url: URL, o: GetJsonOptions): Promise<unknown> {
  try {
    return await o.client.request({ url, signal: o.signal, classify: exchangeRules(o) });
  } catch (err) {
    if (o.signal?.aborted)
      throw new LiveSourceError(`${o.label}: request aborted by the caller`, false, { cause: o.signal.reason });
    if (!(err instanceof HttpGiveUpError)) throw err;
    const d = err.details;
    throw new LiveSourceError(err.message, d.retryableLater, {
      status: d.status,
      exchangeCode: d.code,
      retryAfterMs: d.afterMs,
      cause: err.cause,
    });
  }
}

// ---- shared row checks -------------------------------------------------------------------------

/**
 * A price or volume exactly as the exchange wrote it; anything but a non-negative decimal string is a malformed answer.
 */
export function decimalField(value: unknown, what: string, label: string): string {
  if (typeof value !== 'string' || !DECIMAL_TEXT_RE.test(value))
    throw new LiveSourceError(`${label}: ${what} ${JSON.stringify(value)} is not a decimal string`, false);
  return value;
}

export function countField(value: unknown, what: string, label: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new LiveSourceError(`${label}: ${what} ${JSON.stringify(value)} is not a count`, false);
  return value;
}

/** An exchange row's prices, volume and trade count, read from the given positions and checked. */
export function ohlcvFields(
  row: unknown[],
  at: { volume: number; trades: number },
  where: string,
): Omit<Candle, 'openTime'> {
  return {
    open: decimalField(row[1], 'open', where),
    high: decimalField(row[2], 'high', where),
    low: decimalField(row[3], 'low', where),
    close: decimalField(row[4], 'close', where),
    volume: decimalField(row[at.volume], 'volume', where),
    trades: countField(row[at.trades], 'trade count', where),
  };
}

/** Open times must sit on our bucket grid (weeks open on Monday), or rollups would mix buckets. */
export function onGrid(openTime: number, interval: CandleInterval, label: string): number {
  if (!Number.isSafeInteger(openTime) || bucketStart(openTime, interval) !== openTime) {
    throw new LiveSourceError(`${label}: open time ${openTime} is not on the ${interval} grid`, false);
  }
  return openTime;
}

/** Rows ascending and each bucket once, as both exchanges send them. */
export function checkAscending(candles: readonly Candle[], label: string): void {
  for (let i = 1; i < candles.length; i += 1) {
    if ((candles[i] as Candle).openTime <= (candles[i - 1] as Candle).openTime)
      throw new LiveSourceError(`${label}: rows are not strictly ascending at index ${i}`, false);
  }
}

export const trimBaseUrl = (baseUrl: string) => baseUrl.replace(/\/+$/, '');
