import { DECIMAL_TEXT_RE, type Candle } from '../candle';
import { bucketStart, type CandleInterval } from '../intervals';

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
  fetchClosed(args: { exchangeSymbol: string; interval: CandleInterval; since: number; now: number; signal?: AbortSignal }): Promise<LiveFetchResult>;
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
export class LiveSourceError extends Error {
  override readonly name = 'LiveSourceError';
  readonly status?: number;
  readonly exchangeCode?: string | number;
  readonly retryAfterMs?: number;

  constructor(message: string, readonly retryable: boolean, details: LiveSourceErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
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
}

export interface RetryPolicy {
  /** Retries after the first attempt (default 3, so at most 4 requests). */
  maxRetries?: number;
  /** Backoff before retry n is base·2ⁿ with equal jitter (default 250 ms), at most maxDelayMs (default 5 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /**
   * Longest Retry-After honoured inside one call (default 10 s). A longer one ends the call with a
   * retryable LiveSourceError carrying retryAfterMs instead of retrying early: Binance bans IPs that
   * keep calling after a 429.
   */
  maxRetryAfterMs?: number;
}

export interface GetJsonOptions {
  /** Prefix of every error message, e.g. "binance". */
  label: string;
  fetch?: typeof fetch;
  /** Per attempt; the caller's signal may end it sooner. */
  timeoutMs: number;
  signal?: AbortSignal;
  retry?: RetryPolicy;
  /** The exchange's message (and code) from a non-2xx body, for the error. */
  describeError?: (body: unknown) => { message: string; code?: string | number } | undefined;
  /**
   * Reads a 2xx body. Throw a LiveSourceError to fail: retryable ones are retried like a 5xx
   * (Kraken reports EService:Unavailable inside an HTTP 200).
   */
  check?: (body: unknown) => void;
}

const DEFAULTS = { maxRetries: 3, baseDelayMs: 250, maxDelayMs: 5_000, maxRetryAfterMs: 10_000 } as const;

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), in ms; null when absent or unreadable. */
export function parseRetryAfter(header: string | null, nowMs = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

function backoffMs(attempt: number, policy: Required<RetryPolicy>): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

const snippet = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

function callerAborted(label: string, signal: AbortSignal): LiveSourceError {
  return new LiveSourceError(`${label}: request aborted by the caller`, false, { cause: signal.reason });
}

/**
 * GET one JSON document: a per-attempt timeout (AbortSignal.any of the caller's signal and
 * AbortSignal.timeout), and up to `maxRetries` retries with jittered exponential backoff on 429, 5xx,
 * network errors, timeouts and retryable `check` failures, waiting Retry-After when the server sends
 * one (up to maxRetryAfterMs). Any other 4xx fails at once with the exchange's message, non-retryable.
 */
export async function getJson(url: URL, o: GetJsonOptions): Promise<unknown> {
  const doFetch = o.fetch ?? fetch;
  const policy: Required<RetryPolicy> = { ...DEFAULTS, ...o.retry };
  const where = `${o.label} GET ${url.pathname}`;
  let last: LiveSourceError | undefined;

  for (let attempt = 0; attempt <= policy.maxRetries; attempt += 1) {
    if (o.signal?.aborted) throw callerAborted(o.label, o.signal);
    let waitMs: number | null = null;
    const timeout = AbortSignal.timeout(o.timeoutMs);
    try {
      const res = await doFetch(url, {
        headers: { accept: 'application/json' },
        signal: o.signal ? AbortSignal.any([o.signal, timeout]) : timeout,
      });
      const text = await res.text();
      if (res.ok) {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch (cause) {
          throw new LiveSourceError(`${where}: HTTP ${res.status} with a body that is not JSON: ${snippet(text)}`, false, { status: res.status, cause });
        }
        o.check?.(body);
        return body;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const described = parsed === undefined ? undefined : o.describeError?.(parsed);
      const said = described ? described.message : snippet(text);
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
      if (res.status === 429 || res.status === 418 || res.status >= 500) {
        // 418 is Binance's IP ban for calling on after a 429: never retried here, only reported.
        if (res.status === 418 || (retryAfter !== null && retryAfter > policy.maxRetryAfterMs)) {
          throw new LiveSourceError(`${where}: HTTP ${res.status} ${said}; retry after ${retryAfter ?? 'unknown'} ms`, true, {
            status: res.status,
            exchangeCode: described?.code,
            retryAfterMs: retryAfter ?? undefined,
          });
        }
        last = new LiveSourceError(`${where}: HTTP ${res.status} ${said}`, true, { status: res.status, exchangeCode: described?.code });
        waitMs = retryAfter;
      } else {
        throw new LiveSourceError(`${where}: HTTP ${res.status} ${said}`, false, { status: res.status, exchangeCode: described?.code });
      }
    } catch (err) {
      if (o.signal?.aborted) throw callerAborted(o.label, o.signal);
      if (err instanceof LiveSourceError) {
        if (!err.retryable || err.retryAfterMs !== undefined) throw err;
        last = err;
      } else if (timeout.aborted) {
        last = new LiveSourceError(`${where}: no answer within ${o.timeoutMs} ms`, true, { cause: err });
      } else {
        const reason = err instanceof Error ? (err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message) : String(err);
        last = new LiveSourceError(`${where}: network error: ${reason}`, true, { cause: err });
      }
    }
    if (attempt === policy.maxRetries) break;
    try {
      await sleep(waitMs ?? backoffMs(attempt, policy), o.signal);
    } catch {
      throw callerAborted(o.label, o.signal as AbortSignal);
    }
  }
  const final = last as LiveSourceError;
  throw new LiveSourceError(`${final.message} (gave up after ${policy.maxRetries + 1} attempts)`, true, {
    status: final.status,
    exchangeCode: final.exchangeCode,
    cause: final,
  });
}

// ---- shared row checks -------------------------------------------------------------------------

/** A price or volume exactly as the exchange wrote it; anything but a non-negative decimal string is a malformed answer. */
export function decimalField(value: unknown, what: string, label: string): string {
  if (typeof value !== 'string' || !DECIMAL_TEXT_RE.test(value)) throw new LiveSourceError(`${label}: ${what} ${JSON.stringify(value)} is not a decimal string`, false);
  return value;
}

export function countField(value: unknown, what: string, label: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new LiveSourceError(`${label}: ${what} ${JSON.stringify(value)} is not a count`, false);
  return value;
}

/** An exchange row's prices, volume and trade count, read from the given positions and checked. */
export function ohlcvFields(row: unknown[], at: { volume: number; trades: number }, where: string): Omit<Candle, 'openTime'> {
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
    if ((candles[i] as Candle).openTime <= (candles[i - 1] as Candle).openTime) throw new LiveSourceError(`${label}: rows are not strictly ascending at index ${i}`, false);
  }
}

export const trimBaseUrl = (baseUrl: string) => baseUrl.replace(/\/+$/, '');
