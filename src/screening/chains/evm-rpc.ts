import { BaseError, HttpRequestError, ResponseBodyTooLargeError, TimeoutError, createPublicClient, http } from 'viem';
import { raceSignal } from '../../platform/abort/deadline';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../platform/http-client/bounded-body';
import { redactEndpoint } from '../../platform/http-client/endpoint-secrets';
import type { HttpObserver } from '../../platform/http-client/http-client';
import type { EvmChain } from './chain';
import { ChainConfigurationError, ChainUnavailableError } from './chain-client';

export type { EvmChain } from './chain';

/** Raw JSON-RPC over viem's transport: the typed actions take no AbortSignal, `request` does. */
export interface EvmRpc {
  request<T>(method: string, params: unknown[], signal: AbortSignal): Promise<T>;
  /** Like `request`, but `undefined` when the node answered with a JSON-RPC error (revert, unknown method). */
  attempt<T>(method: string, params: unknown[], signal: AbortSignal): Promise<T | undefined>;
}

type RawRequest = (args: { method: string; params: unknown[] }, options: { signal: AbortSignal }) => Promise<unknown>;

// Codes a node uses for overload or internal trouble: a retry may succeed, so never read them as "no".
const TRANSIENT_CODES = new Set([-1, -32002, -32005, -32603]);

/**
 * The node failed a call. `rpcCode` is set when the node itself answered with a JSON-RPC error (as
 * opposed to a timeout or an outage), so callers can react to what it said, e.g. split an eth_getLogs
 * range the node called too large.
 */
export class EvmNodeError extends ChainUnavailableError {
  constructor(
    chain: EvmChain,
    message: string,
    readonly method: string,
    readonly rpcCode: number | undefined,
    options: { retryable?: boolean } = {},
  ) {
    super(chain, message, undefined, options);
    this.name = 'EvmNodeError';
  }
}

export function createEvmRpc(options: {
  chain: EvmChain;
  rpcUrl: string;
  timeoutMs: number;
  observer?: HttpObserver;
  /** Largest answer read (HTTP_MAX_RESPONSE_BYTES): viem streams and counts the body. */
  maxResponseBytes?: number;
}): EvmRpc {
  const { chain, rpcUrl, observer } = options;
  // Counted per call (viem may retry a call once inside its transport).
  const provider = `${chain}-rpc`;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const client = createPublicClient({
    transport: http(rpcUrl, {
      timeout: options.timeoutMs,
      retryCount: 1,
      maxResponseBodySize: maxResponseBytes,
      // A redirect is refused, not followed: it would carry the request (and the URL's credentials) elsewhere.
      fetchOptions: { redirect: 'manual' },
    }),
  });
  const raw = client.request as unknown as RawRequest;

  async function call<T>(method: string, params: unknown[], signal: AbortSignal, tolerateRejection: boolean) {
    signal.throwIfAborted();
    observer?.attempted(provider);
    try {
      return (await raceSignal(raw({ method, params }, { signal }), signal)) as T;
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      const rejected = isRejection(err);
      // A definite "no" the caller asked to tolerate (a revert, an unknown method) is an answer, not an error.
      if (tolerateRejection && rejected) return undefined;
      const final = isRedirect(err) || err instanceof ResponseBodyTooLargeError;
      observer?.failed(
        provider,
        rejected || final ? 'refused' : (err as { status?: unknown }).status === 429 ? 'rate_limited' : 'transient',
      );
      const message = `${chain} node failed on ${method}: ${redactEndpoint(describe(err, maxResponseBytes), rpcUrl)}`;
      // The configured URL is wrong: only an operator can fix it.
      if (isRedirect(err)) throw new ChainConfigurationError(chain, message);
      // The same call would bring the same answer; eth_getLogs splits its range on it (evm-block-windows.ts).
      throw new EvmNodeError(chain, message, method, errorCode(err), final ? { retryable: false } : {});
    }
  }
  return {
    request: <T>(method: string, params: unknown[], signal: AbortSignal) =>
      call<T>(method, params, signal, false) as Promise<T>,
    attempt: <T>(method: string, params: unknown[], signal: AbortSignal) => call<T>(method, params, signal, true),
  };
}

function errorCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}

/** The node answered, and the answer was a definite "no" rather than "try later". */
function isRejection(err: unknown): boolean {
  if (err instanceof HttpRequestError || err instanceof TimeoutError) return false;
  const code = errorCode(err);
  const status = (err as { status?: unknown }).status;
  if (typeof status === 'number' && (status === 429 || status >= 500)) return false;
  return code !== undefined && !TRANSIENT_CODES.has(code);
}

function socketCode(err: unknown): string | undefined {
  for (let cause = err, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

function isRedirect(err: unknown): boolean {
  return err instanceof HttpRequestError && err.status !== undefined && err.status >= 300 && err.status < 400;
}

/**
 * Built from the error's parts, never from viem's message: that message embeds the request URL,
 * and production URLs carry API keys in the path.
 */
function describe(err: unknown, maxResponseBytes: number): string {
  if (err instanceof TimeoutError) return 'request timed out';
  // "response size" is how providers word a range too large for one answer: eth_getLogs splits on it.
  if (err instanceof ResponseBodyTooLargeError)
    return `response size over the ${maxResponseBytes}-byte cap (HTTP_MAX_RESPONSE_BYTES)`;
  if (isRedirect(err))
    return `redirected (HTTP ${(err as HttpRequestError).status}), not followed: configure the URL it points to`;
  if (err instanceof HttpRequestError) {
    return err.status ? `HTTP ${err.status}` : `connection failed (${socketCode(err) ?? 'network error'})`;
  }
  const code = errorCode(err);
  const details = err instanceof BaseError ? err.details : err instanceof Error ? err.message : String(err);
  const text = details.slice(0, 200);
  return code !== undefined ? `RPC error ${code}: ${text}` : `${err instanceof Error ? err.name : 'error'}: ${text}`;
}
