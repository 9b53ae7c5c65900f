import { BaseError, HttpRequestError, TimeoutError, createPublicClient, http } from 'viem';
import { bsc, mainnet } from 'viem/chains';
import { raceSignal } from '../../platform/abort/deadline';
import type { HttpObserver } from '../../platform/http-client/http-client';
import { ChainUnavailableError } from './chain-client';

export type EvmChain = 'ethereum' | 'binance-smart-chain';

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
  ) {
    super(chain, message);
    this.name = 'EvmNodeError';
  }
}

export function createEvmRpc(options: {
  chain: EvmChain;
  rpcUrl: string;
  timeoutMs: number;
  observer?: HttpObserver;
}): EvmRpc {
  const { chain, rpcUrl, observer } = options;
  // Counted per call (viem may retry a call once inside its transport).
  const provider = `${chain}-rpc`;
  const client = createPublicClient({
    chain: chain === 'ethereum' ? mainnet : bsc,
    transport: http(rpcUrl, { timeout: options.timeoutMs, retryCount: 1 }),
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
      observer?.failed(
        provider,
        rejected ? 'refused' : (err as { status?: unknown }).status === 429 ? 'rate_limited' : 'transient',
      );
      throw new EvmNodeError(
        chain,
        `${chain} node failed on ${method}: ${redact(describe(err), rpcUrl)}`,
        method,
        errorCode(err),
      );
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

/**
 * Built from the error's parts, never from viem's message: that message embeds the request URL,
 * and production URLs carry API keys in the path.
 */
function describe(err: unknown): string {
  if (err instanceof TimeoutError) return 'request timed out';
  if (err instanceof HttpRequestError) {
    return err.status ? `HTTP ${err.status}` : `connection failed (${socketCode(err) ?? 'network error'})`;
  }
  const code = errorCode(err);
  const details = err instanceof BaseError ? err.details : err instanceof Error ? err.message : String(err);
  const text = details.slice(0, 200);
  return code !== undefined ? `RPC error ${code}: ${text}` : `${err instanceof Error ? err.name : 'error'}: ${text}`;
}

/** Node error texts can echo the endpoint; strip anything URL-shaped and the configured URL's secrets. */
function redact(text: string, rpcUrl: string): string {
  let out = text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"',)]+/gi, '<rpc-url>');
  try {
    const url = new URL(rpcUrl);
    // Keys usually sit in the path (/v3/<key>) or the query; a long path segment alone is treated as one.
    const segments = url.pathname.split('/').filter((segment) => segment.length >= 8);
    const secrets = [
      url.pathname.length > 1 ? url.pathname : '',
      url.search,
      url.username,
      url.password,
      url.host,
      ...segments,
    ];
    for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('<redacted>');
  } catch {
    out = out.split(rpcUrl).join('<rpc-url>');
  }
  return out;
}
