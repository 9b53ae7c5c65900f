import type { Chain } from './chain';
import { ChainUnavailableError } from './chain-client';

export interface ProviderMetrics {
  requests: number;
  retries: number;
  rateLimited: number;
  failures: number;
}

export interface HttpProviderOptions {
  chain: Chain;
  /** Shown in metrics and errors, e.g. "esplora", "trongrid". */
  name: string;
  baseUrl: string;
  headers?: Record<string, string>;
  /** Token bucket: sustained requests per second (burst = the same number). */
  ratePerSecond: number;
  /** Per-request cap; the crawl's signal may end it sooner. */
  requestTimeoutMs: number;
  /** Retries on 429, 5xx and network errors, with jittered backoff honouring Retry-After, never past the deadline. */
  maxRetries?: number;
  fetch?: typeof fetch;
}

export interface HttpProvider {
  /** GET/POST JSON; null on 404 when `notFoundAsNull`. Throws ChainUnavailableError when retries are spent, or the signal's reason. */
  request<T>(method: 'GET' | 'POST', path: string, options: { signal: AbortSignal; query?: Record<string, string | number | undefined>; body?: unknown; notFoundAsNull?: boolean }): Promise<T | null>;
  metrics(): ProviderMetrics;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(signal.reason); };
    signal.addEventListener('abort', onAbort, { once: true });
  });

const RETRYABLE = (status: number) => status === 429 || status >= 500;

/** Retry-After in seconds or as an HTTP date; capped so one answer cannot park a crawl. */
function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.min(10_000, Math.max(0, seconds * 1000));
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.min(10_000, Math.max(0, at - Date.now()));
}

/**
 * One provider endpoint (a chain API) as every adapter uses it: a token-bucket rate limit, per-request
 * timeouts inside the crawl's deadline, retries with backoff on 429/5xx, and request counters for the
 * full response's performance metadata.
 */
export function createHttpProvider(o: HttpProviderOptions): HttpProvider {
  const doFetch = o.fetch ?? fetch;
  const maxRetries = o.maxRetries ?? 3;
  const m: ProviderMetrics = { requests: 0, retries: 0, rateLimited: 0, failures: 0 };
  let tokens = o.ratePerSecond;
  let refilledAt = Date.now();

  async function takeToken(signal: AbortSignal): Promise<void> {
    for (;;) {
      const now = Date.now();
      tokens = Math.min(o.ratePerSecond, tokens + ((now - refilledAt) / 1000) * o.ratePerSecond);
      refilledAt = now;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await sleep(Math.ceil(((1 - tokens) / o.ratePerSecond) * 1000), signal);
    }
  }

  function urlOf(path: string, query?: Record<string, string | number | undefined>): string {
    const url = new URL(o.baseUrl.replace(/\/$/, '') + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  return {
    metrics: () => ({ ...m }),
    async request<T>(method: 'GET' | 'POST', path: string, options: { signal: AbortSignal; query?: Record<string, string | number | undefined>; body?: unknown; notFoundAsNull?: boolean }): Promise<T | null> {
      const url = urlOf(path, options.query);
      let lastProblem = 'no attempt';
      for (let attempt = 0; attempt <= maxRetries; attempt += 1) {
        await takeToken(options.signal);
        m.requests += 1;
        let status = 0;
        let retryAfter: number | null = null;
        try {
          const res = await doFetch(url, {
            method,
            headers: { accept: 'application/json', ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
            body: options.body === undefined ? undefined : JSON.stringify(options.body),
            signal: AbortSignal.any([options.signal, AbortSignal.timeout(o.requestTimeoutMs)]),
          });
          status = res.status;
          if (res.ok) return (await res.json()) as T;
          await res.arrayBuffer().catch(() => undefined);
          if (status === 404 && options.notFoundAsNull) return null;
          if (status === 429) m.rateLimited += 1;
          retryAfter = retryAfterMs(res.headers.get('retry-after'));
          lastProblem = `HTTP ${status}`;
          if (!RETRYABLE(status)) break;
        } catch (err) {
          if (options.signal.aborted) throw options.signal.reason;
          lastProblem = err instanceof Error ? err.message : String(err);
        }
        if (attempt === maxRetries) break;
        m.retries += 1;
        const backoff = retryAfter ?? Math.min(2000, 100 * 2 ** attempt) * (0.5 + Math.random() / 2);
        await sleep(backoff, options.signal);
      }
      m.failures += 1;
      throw new ChainUnavailableError(o.chain, `${o.name} ${method} ${path}: ${lastProblem}`);
    },
  };
}
