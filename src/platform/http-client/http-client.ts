import { deadline, raceSignal } from '../abort/deadline';
import { abortableSleep } from './abortable-sleep';
import { DEFAULT_MAX_RESPONSE_BYTES, readBoundedText, ResponseTooLargeError } from './bounded-body';
import { endpointSecrets, redactSecrets, relativePath, requestCredentials, withoutUserinfo } from './endpoint-secrets';
import { parseRetryAfter } from './retry-after';
import { createTokenBucket, type TokenBucket } from './token-bucket';

/** One answer as a classifier sees it: the body is read once, as text and (when it parses) as JSON. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
  /** Retry-After in ms when the server sent one. */
  retryAfterMs: number | null;
}

/**
 * What a provider's rules make of an answer: the value, "the same request may work after a pause"
 * (backoff, or `afterMs` when the provider said how long), or "stop": `retryableLater` says whether a
 * later call (a later job, the next sync round) may succeed, as opposed to a request or credential fault.
 */
export type Verdict<T> =
  | { kind: 'ok'; value: T }
  | {
      kind: 'retry';
      reason: string;
      status?: number;
      code?: string | number;
      afterMs?: number | null;
      rateLimited?: boolean;
    }
  | {
      kind: 'fail';
      reason: string;
      status?: number;
      code?: string | number;
      retryableLater?: boolean;
      afterMs?: number;
      misconfigured?: boolean;
    };

/** Provider-specific error rules; `where` ("binance GET /api/v3/klines") prefixes every reason. */
export type Classifier<T> = (answer: HttpAnswer, where: string) => Verdict<T>;

export interface RetryPolicy {
  /** Retries after the first attempt (default 3, so at most 4 requests). */
  maxRetries?: number;
  /** Backoff before retry n is base·2ⁿ with equal jitter (default 250 ms), at most maxDelayMs (default 5 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /**
   * Longest Retry-After waited inside one call (default 10 s). A longer one ends the call with a
   * give-up carrying `afterMs` instead of retrying early (Binance bans IPs that call on after a 429)
   * or parking a crawl for minutes.
   */
  maxRetryAfterMs?: number;
}

export interface HttpMetrics {
  /** Attempts sent (retries included). */
  requests: number;
  retries: number;
  /** Answers that said "slow down": HTTP 429 or a provider's own rate-limit body. */
  rateLimited: number;
  /** Calls that ended without a value (the caller's own abort excluded). */
  failures: number;
}

/**
 * Told about every attempt and every attempt that produced no value (e.g. to count them per provider in
 * Prometheus): `rate_limited` (429 or a provider's rate-limit body), `transient` (timeout, network
 * error, 5xx: worth retrying), `refused` (an answer the rules call final). The caller's own abort is neither.
 */
export interface HttpObserver {
  attempted(provider: string): void;
  failed(provider: string, kind: 'rate_limited' | 'transient' | 'refused'): void;
}

export interface HttpClientOptions {
  /** Names the provider in reasons and errors ("binance", "etherscan"); never the URL, which may carry a key. */
  name: string;
  /**
   * The provider's endpoint as configured. Reasons name a request by its path below it, and no part of it (userinfo,
   * a key in its path or query, its host) survives in a reason, even when an answer's body quotes it.
   */
  baseUrl?: string | URL;
  /**
   * Largest answer body read (HTTP_MAX_RESPONSE_BYTES, default 10 MiB): a longer one fails the call without being
   * read further and is not retried (the same request gets the same answer).
   */
  maxResponseBytes?: number;
  /** Per attempt; a request may set its own, and the caller's signal may end it sooner. */
  timeoutMs: number;
  retry?: RetryPolicy;
  /** Requests per second for this provider; or `bucket` to share one limit between clients. */
  ratePerSecond?: number;
  bucket?: TokenBucket;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** JSON reader (Solana needs a lossless one for u64 values). */
  parseJson?: (text: string) => unknown;
  observer?: HttpObserver;
}

export interface HttpRequest<T> {
  url: URL;
  method?: 'GET' | 'POST';
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  classify?: Classifier<T>;
  timeoutMs?: number;
}

export interface HttpClient {
  /** The classified value; throws HttpGiveUpError, or the caller signal's reason when it aborted. */
  request<T = unknown>(request: HttpRequest<T>): Promise<T>;
  metrics(): HttpMetrics;
}

export interface HttpGiveUpDetails {
  /** A later call may succeed (rate limit, outage, retries spent); false for request or credential faults. */
  retryableLater: boolean;
  status?: number;
  code?: string | number;
  /** How long the provider asked us to wait, when that was longer than one call waits. */
  afterMs?: number;
  /** The provider refused our setup (API key, plan, endpoint): only an operator can fix it. */
  misconfigured?: boolean;
  attempts: number;
  cause?: unknown;
}

/**
 * A request that produced no value: adapters map it to their own error type
 * (ChainUnavailableError, LiveSourceError…).
 */
export class HttpGiveUpError extends Error {
  override readonly name = 'HttpGiveUpError';
  constructor(
    message: string,
    readonly details: HttpGiveUpDetails,
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }
}

const DEFAULT_POLICY: Required<RetryPolicy> = {
  maxRetries: 3,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 10_000,
};

export const snippet = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

/**
 * The rules most JSON APIs need: 2xx with a JSON body is the value; 429 and 5xx are worth the same
 * request again (after Retry-After when sent); anything else is the caller's fault and final.
 */
export function jsonStatusRules<T = unknown>(answer: HttpAnswer, where: string): Verdict<T> {
  const { status } = answer;
  if (status >= 200 && status < 300) {
    if (answer.json === undefined)
      return {
        kind: 'fail',
        reason: `${where}: HTTP ${status} with a body that is not JSON: ${snippet(answer.text)}`,
        status,
      };
    return { kind: 'ok', value: answer.json as T };
  }
  if (status === 429 || status >= 500)
    return {
      kind: 'retry',
      reason: `${where}: HTTP ${status}`,
      status,
      afterMs: answer.retryAfterMs,
      rateLimited: status === 429,
    };
  return { kind: 'fail', reason: `${where}: HTTP ${status}`, status };
}

function backoffMs(attempt: number, policy: Required<RetryPolicy>): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

/** A network error's own words (redacted with the rest of the reason: undici quotes a URL with credentials). */
function describeNetworkError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message;
}

const isRedirect = (status: number) => status >= 300 && status < 400;

/**
 * The one outbound HTTP client (chain APIs, exchange APIs): a token bucket per provider, a timeout per
 * attempt inside the caller's deadline, retries with jittered exponential backoff that honour
 * Retry-After, and provider rules that classify every answer (a 200 can still be a rate limit, as
 * Etherscan's and Kraken's are). A wait never outlives the caller's signal. Bounded: an answer body is read
 * up to `maxResponseBytes`, a redirect is refused rather than followed (a 3xx names the provider and fails the
 * call: the configured URL is wrong, and following it would send our headers, keys included, elsewhere), and
 * no reason carries the endpoint's credentials.
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const doFetch = options.fetch ?? fetch;
  const parseJson = options.parseJson ?? JSON.parse;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const policy: Required<RetryPolicy> = { ...DEFAULT_POLICY, ...options.retry };
  const bucket = options.bucket ?? (options.ratePerSecond ? createTokenBucket(options.ratePerSecond) : undefined);
  const m: HttpMetrics = { requests: 0, retries: 0, rateLimited: 0, failures: 0 };

  // The provider's headers carry keys too (TRON-PRO-API-KEY), and an error body may quote them back.
  const headerSecrets = Object.values(options.headers ?? {}).filter((value) => value.length >= 8);
  const baseSecrets =
    options.baseUrl === undefined ? undefined : [...endpointSecrets(options.baseUrl), ...headerSecrets];

  /** `where` is ours (name, method, relative path); what follows it quotes answers and network errors. */
  const giveUp = (message: string, details: HttpGiveUpDetails, where: string, secrets: readonly string[]): never => {
    m.failures += 1;
    const safe = message.startsWith(where)
      ? where + redactSecrets(message.slice(where.length), secrets)
      : redactSecrets(message, secrets);
    throw new HttpGiveUpError(safe, details);
  };

  async function attemptOnce<T>(req: HttpRequest<T>, where: string, timeoutMs: number): Promise<Verdict<T>> {
    const attempt = deadline(timeoutMs, req.signal);
    const { url, authorization } = withoutUserinfo(req.url);
    try {
      // Raced as well as passed down: the caller is released when the signal fires even if fetch lost track of it.
      const { res, text } = await raceSignal(
        (async () => {
          const res = await doFetch(url, {
            method: req.method ?? 'GET',
            headers: {
              accept: 'application/json',
              ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
              ...(authorization ? { authorization } : {}),
              ...options.headers,
              ...req.headers,
            },
            body: req.body === undefined ? undefined : JSON.stringify(req.body),
            redirect: 'manual',
            signal: attempt.signal,
          });
          if (isRedirect(res.status)) {
            await res.body?.cancel().catch(() => undefined);
            return { res, text: '' };
          }
          return { res, text: await readBoundedText(res, maxResponseBytes) };
        })(),
        attempt.signal,
      );
      if (isRedirect(res.status))
        return {
          kind: 'fail',
          reason: `${where}: redirected (HTTP ${res.status}), not followed: configure the URL it points to`,
          status: res.status,
          code: 'REDIRECT_REFUSED',
          misconfigured: true,
        };
      let json: unknown;
      try {
        json = text === '' ? undefined : parseJson(text);
      } catch {
        json = undefined;
      }
      const answer: HttpAnswer = {
        status: res.status,
        headers: res.headers,
        text,
        json,
        retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
      };
      return (req.classify ?? (jsonStatusRules as Classifier<T>))(answer, where);
    } catch (err) {
      if (req.signal?.aborted) throw req.signal.reason;
      if (attempt.timedOut) return { kind: 'retry', reason: `${where}: no answer within ${timeoutMs} ms` };
      if (err instanceof ResponseTooLargeError)
        return { kind: 'fail', reason: `${where}: ${err.message}`, code: 'RESPONSE_TOO_LARGE' };
      return { kind: 'retry', reason: `${where}: network error: ${describeNetworkError(err)}` };
    } finally {
      attempt.dispose();
    }
  }

  return {
    metrics: () => ({ ...m }),
    async request<T>(req: HttpRequest<T>): Promise<T> {
      const where = `${options.name} ${req.method ?? 'GET'} ${relativePath(req.url, options.baseUrl)}`;
      // A reason quotes answers and network errors: neither may carry the endpoint's credentials out.
      const secrets = baseSecrets ?? [...requestCredentials(req.url), ...headerSecrets];
      const timeoutMs = req.timeoutMs ?? options.timeoutMs;
      let last: Extract<Verdict<T>, { kind: 'retry' }> | undefined;
      for (let attempt = 0; attempt <= policy.maxRetries; attempt += 1) {
        req.signal?.throwIfAborted();
        await bucket?.take(req.signal);
        m.requests += 1;
        options.observer?.attempted(options.name);
        const verdict = await attemptOnce(req, where, timeoutMs);
        if (verdict.kind === 'ok') return verdict.value;
        options.observer?.failed(
          options.name,
          verdict.kind === 'fail' ? 'refused' : verdict.rateLimited ? 'rate_limited' : 'transient',
        );
        if (verdict.kind === 'fail') {
          return giveUp(
            verdict.reason,
            {
              retryableLater: verdict.retryableLater ?? false,
              status: verdict.status,
              code: verdict.code,
              afterMs: verdict.afterMs,
              misconfigured: verdict.misconfigured,
              attempts: attempt + 1,
            },
            where,
            secrets,
          );
        }
        if (verdict.rateLimited) m.rateLimited += 1;
        const wait = verdict.afterMs ?? null;
        if (wait !== null && wait > policy.maxRetryAfterMs) {
          return giveUp(
            `${verdict.reason}; retry after ${wait} ms`,
            {
              retryableLater: true,
              status: verdict.status,
              code: verdict.code,
              afterMs: wait,
              attempts: attempt + 1,
            },
            where,
            secrets,
          );
        }
        last = verdict;
        if (attempt === policy.maxRetries) break;
        m.retries += 1;
        await abortableSleep(wait ?? backoffMs(attempt, policy), req.signal);
      }
      const final = last as NonNullable<typeof last>;
      return giveUp(
        `${final.reason} (gave up after ${policy.maxRetries + 1} attempts)`,
        {
          retryableLater: true,
          status: final.status,
          code: final.code,
          attempts: policy.maxRetries + 1,
        },
        where,
        secrets,
      );
    },
  };
}
