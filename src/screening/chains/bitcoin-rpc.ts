import { redactEndpoint } from '../../platform/http-client/endpoint-secrets';
import { type Classifier, type HttpObserver, jsonStatusRules } from '../../platform/http-client/http-client';
import { ChainUnavailableError } from './chain-client';
import { createHttpProvider, type ProviderMetrics } from './http-provider';

/**
 * A bitcoin node's JSON-RPC (btcd, or bitcoind for what it has): one call, the node's own errors as BitcoinRpcError.
 */
export interface BitcoinRpc {
  call<T>(method: string, params: unknown[], signal: AbortSignal): Promise<T>;
  metrics(): ProviderMetrics;
}

interface Envelope {
  result?: unknown;
  error?: { code?: number; message?: string } | null;
}

/** Codes a node uses for trouble of its own (misc, warming up, internal): a later call may succeed. */
const TRANSIENT_CODES = new Set([-1, -28, -32603]);

/**
 * The node answered the call with an error: `rpcCode` says which, so callers can read "no such transaction" (-5)
 * as an answer rather than an outage.
 */
export class BitcoinRpcError extends ChainUnavailableError {
  constructor(
    message: string,
    readonly method: string,
    readonly rpcCode: number | undefined,
  ) {
    super('bitcoin', message, undefined, { retryable: rpcCode === undefined || TRANSIENT_CODES.has(rpcCode) });
    this.name = 'BitcoinRpcError';
  }
}

/**
 * Amounts come as BTC decimals (0.00012345): every fractional number outside a string is kept as its text, for
 * btcToSats to read exactly rather than through a rounded double.
 */
export function parseBitcoinRpcJson(text: string): unknown {
  const wrapped = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) =>
    token.startsWith('"') || /^-?\d+$/.test(token) ? token : `"${token}"`,
  );
  return JSON.parse(wrapped);
}

/**
 * btcd answers its errors with HTTP 200 and bitcoind with 404/500, both with the JSON envelope: either is the
 * node's answer, read by `call`. 401/403 is the URL's credentials refused: only an operator can fix that.
 */
const rpcRules: Classifier<Envelope> = (answer, where) => {
  const body = answer.json as Envelope | undefined;
  if (body && typeof body === 'object' && body.error) return { kind: 'ok', value: body };
  if (answer.status === 401 || answer.status === 403)
    return {
      kind: 'fail',
      reason: `${where}: HTTP ${answer.status}: the node refused the credentials of BITCOIN_RPC_URL`,
      status: answer.status,
      misconfigured: true,
    };
  return jsonStatusRules<Envelope>(answer, where);
};

export function createBitcoinRpc(options: {
  /** http://user:pass@host:port: the userinfo goes as Basic authorization and is never quoted. */
  rpcUrl: string;
  requestTimeoutMs: number;
  ratePerSecond: number;
  fetch?: typeof fetch;
  observer?: HttpObserver;
  maxResponseBytes?: number;
}): BitcoinRpc {
  const provider = createHttpProvider({
    chain: 'bitcoin',
    name: 'bitcoin-rpc',
    baseUrl: options.rpcUrl,
    ratePerSecond: options.ratePerSecond,
    requestTimeoutMs: options.requestTimeoutMs,
    fetch: options.fetch,
    observer: options.observer,
    maxResponseBytes: options.maxResponseBytes,
    parseJson: parseBitcoinRpcJson,
  });
  let id = 0;
  return {
    metrics: provider.metrics,
    async call<T>(method: string, params: unknown[], signal: AbortSignal): Promise<T> {
      id += 1;
      const body = { jsonrpc: '1.0', id, method, params };
      const answer = await provider.request<Envelope>('POST', '', { signal, body, classify: rpcRules });
      if (!answer || typeof answer !== 'object')
        throw new ChainUnavailableError('bitcoin', `bitcoin-rpc ${method}: answer without a JSON-RPC envelope`);
      if (answer.error) {
        const code = typeof answer.error.code === 'number' ? answer.error.code : undefined;
        // The node's words, cut short; it does not know the URL's credentials, but a proxy in front of it might.
        const words = redactEndpoint(String(answer.error.message ?? 'no message').slice(0, 200), options.rpcUrl);
        throw new BitcoinRpcError(`bitcoin-rpc ${method}: RPC error ${code ?? '?'}: ${words}`, method, code);
      }
      return answer.result as T;
    },
  };
}
