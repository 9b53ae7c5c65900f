import {
  address,
  createSolanaRpcFromTransport,
  isAddress,
  isSignature,
  signature,
  type RpcTransport,
} from '@solana/kit';
import type { HttpObserver } from '../../platform/http-client/http-client';
import {
  ChainUnavailableError,
  InvalidAddressError,
  type AddressFacts,
  type AddressTransfer,
  type Asset,
  type ChainClient,
  type ChainTransaction,
  type Transfer,
} from './chain-client';
import { createHttpProvider, type ProviderMetrics } from './http-provider';
import { summarizeTransfers } from './transfer-summary';

export interface SolanaClientOptions {
  rpcUrl: string;
  requestTimeoutMs: number;
  ratePerSecond?: number;
  fetch?: typeof fetch;
  /** Counts requests and failures per provider (the worker's metrics). */
  observer?: HttpObserver;
  /** Largest answer read (HTTP_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

/** The parts of a `getTransaction(…, {encoding: 'json'})` answer this client reads. */
interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string; decimals: number };
}
interface SolanaTx {
  slot: bigint;
  blockTime: bigint | null;
  meta: {
    err: unknown;
    fee: bigint;
    preBalances: readonly bigint[];
    postBalances: readonly bigint[];
    preTokenBalances?: readonly TokenBalance[] | null;
    postTokenBalances?: readonly TokenBalance[] | null;
    loadedAddresses?: { writable: readonly string[]; readonly: readonly string[] };
  } | null;
  transaction: { message: { accountKeys: readonly string[] } };
}

const SOL = { kind: 'native', symbol: 'SOL', decimals: 9 } as const;
const MAX_SIGNATURES = 1000; // getSignaturesForAddress's documented maximum `limit`.
// concurrent getTransaction calls per read of an address's transactions; the provider's bucket still paces them
const FETCH_WIDTH = 4;

/**
 * u64 fields (lamports) can exceed 2^53, which JSON.parse rounds. Kit's own HTTP transport parses them as
 * bigint; this does the same for the shared provider, by wrapping unsafe integers (outside strings) first.
 */
function parseLosslessJson(text: string): unknown {
  const wrapped = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g, (token) =>
    /^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token)) ? `{"$n":"${token}"}` : token,
  );
  return JSON.parse(wrapped, (_key, value: unknown) =>
    value && typeof value === 'object' && '$n' in value && typeof value.$n === 'string' ? BigInt(value.$n) : value,
  );
}

/**
 * Turns per-account balance changes into from→to edges. The chain records only net changes, so senders and
 * receivers are paired greedily, largest sender with largest receiver first: one payer funding several
 * receivers (or several payers funding one) comes out exactly; with several on both sides the pairing
 * is a plausible split, not a recorded one. Value with no counterpart (burns, rounding) keeps a null side.
 */
function pairDeltas(deltas: Map<string, bigint>, asset: Asset, firstIndex: number): Transfer[] {
  const side = (sign: 1n | -1n) =>
    [...deltas]
      .filter(([, d]) => d * sign > 0n)
      .map(([account, d]) => ({ account, left: d * sign }))
      .sort((a, b) => (a.left === b.left ? a.account.localeCompare(b.account) : a.left > b.left ? -1 : 1));
  const senders = side(-1n);
  const receivers = side(1n);
  const transfers: Transfer[] = [];
  while (senders.length || receivers.length) {
    const from = senders[0];
    const to = receivers[0];
    // biome-ignore lint/complexity/useMathMinMax: amounts are bigints, which Math.min does not take.
    const amount = from && to ? (from.left < to.left ? from.left : to.left) : (from ?? to)!.left;
    transfers.push({
      from: from?.account ?? null,
      to: to?.account ?? null,
      asset,
      amount,
      source: 'balance-diff',
      index: firstIndex + transfers.length,
    });
    if (from) {
      from.left -= amount;
      if (from.left === 0n) senders.shift();
    }
    if (to) {
      to.left -= amount;
      if (to.left === 0n) receivers.shift();
    }
  }
  return transfers;
}

/**
 * SOL movements (the fee excluded: it goes to validators, not a counterparty), then SPL movements by owner and mint.
 */
function solanaTransfers(tx: SolanaTx): Transfer[] {
  const meta = tx.meta;
  if (!meta || meta.err !== null) return [];
  const keys = [
    ...tx.transaction.message.accountKeys,
    ...(meta.loadedAddresses?.writable ?? []),
    ...(meta.loadedAddresses?.readonly ?? []),
  ];
  const lamports = new Map<string, bigint>();
  keys.forEach((key, i) => {
    // The fee payer is always the first account key.
    const delta =
      BigInt(meta.postBalances[i] ?? 0n) - BigInt(meta.preBalances[i] ?? 0n) + (i === 0 ? BigInt(meta.fee) : 0n);
    lamports.set(key, (lamports.get(key) ?? 0n) + delta);
  });
  const transfers = pairDeltas(lamports, SOL, 0);
  const byMint = new Map<string, { decimals: number; deltas: Map<string, bigint> }>();
  const apply = (balances: readonly TokenBalance[] | null | undefined, sign: bigint) => {
    for (const b of balances ?? []) {
      // Old transactions lack `owner`; the token account itself is then the best available holder.
      const holder = b.owner ?? keys[b.accountIndex] ?? `#${b.accountIndex}`;
      const mint = byMint.get(b.mint) ?? { decimals: b.uiTokenAmount.decimals, deltas: new Map<string, bigint>() };
      byMint.set(b.mint, mint);
      mint.deltas.set(holder, (mint.deltas.get(holder) ?? 0n) + sign * BigInt(b.uiTokenAmount.amount));
    }
  };
  apply(meta.preTokenBalances, -1n);
  apply(meta.postTokenBalances, 1n);
  for (const [mint, { decimals, deltas }] of byMint) {
    const asset: Asset = { kind: 'token', standard: 'spl', contract: mint, symbol: null, decimals };
    transfers.push(...pairDeltas(deltas, asset, transfers.length));
  }
  return transfers;
}

export function createSolanaClient(options: SolanaClientOptions): ChainClient & { metrics(): ProviderMetrics } {
  const api = createHttpProvider({
    chain: 'solana',
    name: 'solana-rpc',
    baseUrl: options.rpcUrl,
    ratePerSecond: options.ratePerSecond ?? 4,
    requestTimeoutMs: options.requestTimeoutMs,
    fetch: options.fetch,
    parseJson: parseLosslessJson,
    observer: options.observer,
    maxResponseBytes: options.maxResponseBytes,
  });
  // Kit keeps its typed API and response transformers; every request still goes through the provider's
  // rate limit, retries, deadline and metrics.
  const transport: RpcTransport = async ({ payload, signal }) =>
    (await api.request('POST', '', { body: payload, signal: signal ?? new AbortController().signal })) as never;
  const rpc = createSolanaRpcFromTransport(transport);

  /** Kit's errors (JSON-RPC error answers) become ChainUnavailableError; the deadline's reason passes through. */
  async function send<T>(
    request: { send(config: { abortSignal: AbortSignal }): Promise<T> },
    signal: AbortSignal,
  ): Promise<T> {
    try {
      return await request.send({ abortSignal: signal });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      if (err instanceof ChainUnavailableError) throw err;
      throw new ChainUnavailableError('solana', `solana-rpc: ${err instanceof Error ? err.message : String(err)}`, err);
    }
  }

  function normalizeAddress(raw: string): string {
    if (!isAddress(raw)) throw new InvalidAddressError('solana', raw);
    return raw;
  }

  // `finalized` (irreversible data only) is the node's default, so kit leaves it out of the request.
  const fetchTx = (sig: string, signal: AbortSignal) =>
    send(
      rpc.getTransaction(signature(sig), {
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
        commitment: 'finalized',
      }),
      signal,
    );

  async function getTransaction(hash: string, signal: AbortSignal): Promise<ChainTransaction | null> {
    signal.throwIfAborted();
    // Not a 64-byte base58 signature: no node can know it, and asking earns an "invalid param" error.
    if (!isSignature(hash)) return null;
    const tx = await fetchTx(hash, signal);
    if (!tx) return null;
    const transfers = solanaTransfers(tx);
    return {
      chain: 'solana',
      hash,
      status: tx.meta?.err == null ? 'success' : 'failed',
      blockNumber: BigInt(tx.slot),
      timestamp: tx.blockTime === null ? null : Number(tx.blockTime),
      from: tx.transaction.message.accountKeys[0] ?? '',
      // Solana has no single recipient; the receiver of the largest SOL movement (else the first token one) stands in.
      to: transfers[0]?.to ?? null,
      transfers,
    };
  }

  async function getAddressTransfers(raw: string, { limit }: { limit: number }, signal: AbortSignal) {
    signal.throwIfAborted();
    const self = normalizeAddress(raw);
    const size = Math.min(MAX_SIGNATURES, Math.max(1, limit));
    const signatures = await send(
      rpc.getSignaturesForAddress(address(self), { limit: size, commitment: 'finalized' }),
      signal,
    );
    const ok = signatures.filter((s) => s.err === null); // a failed transaction only paid its fee
    const txs: (SolanaTx | null)[] = new Array(ok.length).fill(null);
    let next = 0;
    let failed = false; // after one failure the other workers stop, rather than spend the request budget
    await Promise.all(
      Array.from({ length: Math.min(FETCH_WIDTH, ok.length) }, async () => {
        while (next < ok.length && !failed) {
          const i = next++;
          txs[i] = await fetchTx(ok[i]!.signature, signal).catch((err: unknown) => {
            failed = true;
            throw err;
          });
        }
      }),
    );
    const transfers: AddressTransfer[] = [];
    ok.forEach((s, i) => {
      const tx = txs[i];
      if (!tx) return;
      const timestamp = tx.blockTime ?? s.blockTime;
      for (const t of solanaTransfers(tx)) {
        const direction = t.from === self ? 'out' : t.to === self ? 'in' : null;
        const counterparty = direction === 'out' ? t.to : t.from;
        if (!direction || !counterparty || counterparty === self) continue;
        transfers.push({
          txid: s.signature,
          timestamp: timestamp === null ? null : Number(timestamp),
          direction,
          counterparty,
          asset: t.asset,
          amount: t.amount,
        });
      }
    });
    return { transfers: transfers.slice(0, size), truncated: signatures.length === size || transfers.length > size };
  }

  async function getAddressFacts(
    raw: string,
    { tokens, transferLimit }: { tokens: string[]; transferLimit: number },
    signal: AbortSignal,
  ): Promise<AddressFacts> {
    signal.throwIfAborted();
    const owner = normalizeAddress(raw);
    const mints = [...new Set(tokens.map(normalizeAddress))];
    const [balance, recent, tokenBalances] = await Promise.all([
      send(rpc.getBalance(address(owner), { commitment: 'finalized' }), signal),
      getAddressTransfers(owner, { limit: Math.max(1, transferLimit) }, signal),
      Promise.all(
        mints.map(async (mint) => {
          const accounts = await send(
            rpc.getTokenAccountsByOwner(
              address(owner),
              { mint: address(mint) },
              { encoding: 'jsonParsed', commitment: 'finalized' },
            ),
            signal,
          );
          const amounts = accounts.value.map((a) => a.account.data.parsed.info.tokenAmount);
          const asset: Asset = {
            kind: 'token',
            standard: 'spl',
            contract: mint,
            symbol: null,
            decimals: amounts[0]?.decimals ?? null,
          };
          return { asset, amount: amounts.reduce((sum, a) => sum + BigInt(a.amount), 0n) };
        }),
      ),
    ]);
    return {
      address: owner,
      // Programs are executable accounts, which getBalance does not reveal; screening subjects are wallets.
      isContract: false,
      nativeBalance: BigInt(balance.value),
      tokenBalances,
      // Solana has no nonce: outgoing transactions in the sampled page (a lower bound).
      outgoingCount: new Set(recent.transfers.filter((t) => t.direction === 'out').map((t) => t.txid)).size,
      transferSummary: summarizeTransfers(recent.transfers, recent.truncated, transferLimit, null),
    };
  }

  return {
    chain: 'solana',
    nativeAsset: SOL,
    normalizeAddress,
    getTransaction,
    getAddressFacts,
    getAddressTransfers,
    metrics: api.metrics,
  };
}
