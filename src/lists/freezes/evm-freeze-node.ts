import { BaseError, createPublicClient, HttpRequestError, http, TimeoutError, type Address } from 'viem';
import { AppError } from '../../platform/errors';
import { FREEZE_EVENTS, FREEZE_KINDS } from './evm-freeze-abi';
import type { FreezeEvent, FreezeToken } from './freeze-event';
import type { EvmChain } from '../../screening';
import { SCREENING_ERRORS } from '../../screening';

/** A decoded freeze log, before its block's time is known. */
export type FreezeLog = Omit<FreezeEvent, 'at'> & { blockTimestampMs: number | null };

/** The calls the EVM reader makes of one network's node. */
export interface EvmFreezeNode {
  /** What `eth_chainId` answers: the reader refuses a node of another network than the one it reads. */
  chainId(): Promise<number>;
  head(): Promise<bigint>;
  freezeLogs(token: FreezeToken, contract: string, from: bigint, to: bigint): Promise<FreezeLog[]>;
  /** The block's time in ms. */
  blockTime(block: bigint): Promise<number>;
}

/** The node failed a call; `rangeRefused` when it called an eth_getLogs range too large (a smaller one may do). */
export class FreezeNodeError extends AppError {
  constructor(
    message: string,
    readonly rangeRefused: boolean,
  ) {
    super(SCREENING_ERRORS.CHAIN_UNAVAILABLE, message);
  }
}

// How providers refuse a range (Infura "more than 10000 results", Alchemy "response size exceeded", BSC "exceed
// maximum block range"…), as src/screening/chains/evm-block-windows.ts reads them; rate limits are not size.
const TOO_MUCH = new RegExp(
  [
    'more than \\d+ results',
    'too many (results|logs|blocks)',
    'response size',
    'block range',
    'range (is )?too (large|wide|big)',
    'limited to a? ?[\\d,]+',
    'exceed(s|ed)? (the )?max(imum)? (block )?(range|results)',
    'max(imum)? (block )?range',
  ].join('|'),
  'i',
);
const NOT_ABOUT_SIZE = /rate|request count|credits|quota|too many requests/i;

/**
 * Built from the error's parts, never from viem's message, which embeds the request URL (production URLs carry
 * API keys); anything URL-shaped in a node's own text is cut too.
 */
function describe(err: unknown): string {
  if (err instanceof TimeoutError) return 'request timed out';
  if (err instanceof HttpRequestError) return err.status ? `HTTP ${err.status}` : 'connection failed';
  const code = (err as { code?: unknown }).code;
  const details = err instanceof BaseError ? err.details : err instanceof Error ? err.message : String(err);
  const text = details.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>').slice(0, 200);
  return typeof code === 'number' ? `RPC error ${code}: ${text}` : text;
}

async function call<T>(chain: EvmChain, method: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const reason = describe(err);
    throw new FreezeNodeError(
      `${chain} node failed on ${method}: ${reason}`,
      method === 'eth_getLogs' && TOO_MUCH.test(reason) && !NOT_ABOUT_SIZE.test(reason),
    );
  }
}

/**
 * viem over the network's endpoint (ETHEREUM_RPC_URL, BASE_RPC_URL…), as src/screening/chains/evm-rpc.ts builds
 * its client (one retry inside the transport, the chain request timeout); that module is screening's own, so this
 * reader builds its own. The logs it decodes are named after `chain`.
 */
export function createEvmFreezeNode(options: { chain: EvmChain; rpcUrl: string; timeoutMs: number }): EvmFreezeNode {
  const { chain } = options;
  const client = createPublicClient({ transport: http(options.rpcUrl, { timeout: options.timeoutMs, retryCount: 1 }) });
  return {
    chainId: () => call(chain, 'eth_chainId', () => client.getChainId()),
    head: () => call(chain, 'eth_blockNumber', () => client.getBlockNumber({ cacheTime: 0 })),

    async freezeLogs(token, contract, from, to) {
      const logs = await call(chain, 'eth_getLogs', () =>
        client.getLogs({
          address: contract as Address,
          events: FREEZE_EVENTS[token],
          fromBlock: from,
          toBlock: to,
          strict: true,
        }),
      );
      return logs.flatMap((log): FreezeLog[] => {
        const kind = FREEZE_KINDS[log.eventName];
        const args = log.args as { _user?: string; _blackListedUser?: string; _account?: string; _balance?: bigint };
        const address = args._user ?? args._blackListedUser ?? args._account;
        if (!kind || !address || log.blockNumber === null || log.logIndex === null || !log.transactionHash) return [];
        const stamp = (log as { blockTimestamp?: bigint | null }).blockTimestamp;
        return [
          {
            chain,
            token,
            kind,
            address: address.toLowerCase(),
            ...(kind === 'destroy' ? { amount: args._balance ?? 0n } : {}),
            block: log.blockNumber,
            index: log.logIndex,
            tx: log.transactionHash.toLowerCase(),
            // Some nodes put the block's time on each log, which saves a call per block.
            blockTimestampMs: typeof stamp === 'bigint' ? Number(stamp) * 1000 : null,
          },
        ];
      });
    },

    async blockTime(block) {
      const found = await call(chain, 'eth_getBlockByNumber', () => client.getBlock({ blockNumber: block }));
      return Number(found.timestamp) * 1000;
    },
  };
}
