import {
  createHttpClient,
  HttpGiveUpError,
  jsonStatusRules,
  type Classifier,
  type HttpMetrics,
  type HttpObserver,
  type RetryPolicy,
} from '../../platform/http-client/http-client';
import type { TokenBucket } from '../../platform/http-client/token-bucket';
import type { Chain } from './chain';
import { ChainConfigurationError, ChainUnavailableError } from './chain-client';

export type ProviderMetrics = HttpMetrics;

export interface HttpProviderOptions {
  chain: Chain;
  /** Shown in metrics and errors, e.g. "esplora", "trongrid". */
  name: string;
  baseUrl: string;
  headers?: Record<string, string>;
  /** Token bucket: sustained requests per second (burst = the same number). */
  ratePerSecond: number;
  /** Shares one limit with other providers on the same credential (one Etherscan key for ethereum and BSC). */
  bucket?: TokenBucket;
  /** Per-request cap; the crawl's signal may end it sooner. */
  requestTimeoutMs: number;
  /**
   * Retries on 429, 5xx, network errors and retryable provider bodies, with jittered backoff honouring Retry-After,
   * never past the deadline.
   */
  maxRetries?: number;
  retry?: RetryPolicy;
  fetch?: typeof fetch;
  parseJson?: (text: string) => unknown;
  /** Counts requests and failures per provider (the worker's Prometheus metrics). */
  observer?: HttpObserver;
  /** Largest answer read (HTTP_MAX_RESPONSE_BYTES); default the shared client's. */
  maxResponseBytes?: number;
}

export interface ProviderRequestOptions<T> {
  signal: AbortSignal;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** 404 means "no such thing" on this API: null instead of an error. */
  notFoundAsNull?: boolean;
  /** The provider's own error rules (Etherscan's status "0" bodies); default: 2xx JSON, retry 429/5xx. */
  classify?: Classifier<T>;
}

export interface HttpProvider {
  /**
   * GET/POST JSON through the shared HTTP client. Throws ChainUnavailableError when retries are spent
   * or the provider failed, ChainConfigurationError when its rules call the failure permanent and our
   * own (bad key, plan), or the signal's reason.
   */
  request<T>(method: 'GET' | 'POST', path: string, options: ProviderRequestOptions<T>): Promise<T | null>;
  metrics(): ProviderMetrics;
}

/**
 * One chain-API endpoint as every adapter uses it: the shared client (src/platform/http-client) with this
 * provider's rate limit, retry policy and error rules, and errors in the chain domain's terms that name the
 * provider and the path below its endpoint only.
 */
export function createHttpProvider(o: HttpProviderOptions): HttpProvider {
  const client = createHttpClient({
    name: o.name,
    // Errors name the path below it, never the URL: a key may sit in its userinfo, path or query.
    baseUrl: o.baseUrl,
    maxResponseBytes: o.maxResponseBytes,
    timeoutMs: o.requestTimeoutMs,
    retry: {
      baseDelayMs: 100,
      maxDelayMs: 2_000,
      ...o.retry,
      ...(o.maxRetries === undefined ? {} : { maxRetries: o.maxRetries }),
    },
    ratePerSecond: o.ratePerSecond,
    bucket: o.bucket,
    headers: o.headers,
    fetch: o.fetch,
    parseJson: o.parseJson,
    observer: o.observer,
  });

  function urlOf(path: string, query?: Record<string, string | number | undefined>): URL {
    const url = new URL(o.baseUrl.replace(/\/$/, '') + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  return {
    metrics: client.metrics,
    async request<T>(method: 'GET' | 'POST', path: string, options: ProviderRequestOptions<T>): Promise<T | null> {
      const rules = options.classify ?? (jsonStatusRules as Classifier<T>);
      const classify: Classifier<T | null> = (answer, where) =>
        options.notFoundAsNull && answer.status === 404 ? { kind: 'ok', value: null } : rules(answer, where);
      try {
        return await client.request<T | null>({
          url: urlOf(path, options.query),
          method,
          body: options.body,
          signal: options.signal,
          classify,
        });
      } catch (err) {
        if (!(err instanceof HttpGiveUpError)) throw err;
        if (err.details.misconfigured) throw new ChainConfigurationError(o.chain, err.message);
        // A refusal of the request itself (a 4xx, an answer over the size cap) would be refused again on a retry.
        throw new ChainUnavailableError(o.chain, err.message, err, { retryable: err.details.retryableLater });
      }
    },
  };
}
