import { AppError } from '../../platform/errors';
import type { Logger } from '../../platform/logging/logger';
import { type EvmChain, SCREENING_ERRORS } from '../../screening';
import type { EvmFreezeNode, FreezeLog } from './evm-freeze-node';
import { FreezeNodeError } from './evm-freeze-node';
import { byPosition, type FreezeEvent, isoSeconds } from './freeze-event';
import type { FreezeContract, FreezeCursor, FreezeStore } from './freeze-store';
import type { ContractSyncResult } from './freeze-sync-types';

/** One EVM network's freeze reading. */
export interface EvmFreezeSettings {
  chain: EvmChain;
  /** What its node must answer to eth_chainId: a node of another network is refused, never read as this one. */
  chainId: number;
  /** The variable that holds its endpoint, named when the node is of another network. */
  rpcVariable: string;
  contracts: FreezeContract[];
  /** Blocks the reader stays behind the head: a reorg shallower than this cannot take back an applied event. */
  confirmations: number;
  windowBlocks: number;
  /** Where a contract without a cursor starts; null: one window before the confirmed head. */
  startBlock: bigint | null;
}

export interface SyncDeps {
  store: FreezeStore;
  log?: Logger;
  signal?: AbortSignal;
  /** Called after each committed window (the activity heartbeats). */
  progress?: () => void;
}

/** A run catches up this many windows per contract at most; the next run goes on from the cursor. */
export const MAX_WINDOWS_PER_RUN = 100;

interface BlockRange {
  from: bigint;
  to: bigint;
}

/** [from, to]; when the node refuses it as too large, its halves (older first), down to single blocks. */
async function logsSplitting(
  fetchRange: (range: BlockRange) => Promise<FreezeLog[]>,
  range: BlockRange,
  onRefused: (size: bigint) => void,
): Promise<FreezeLog[]> {
  try {
    return await fetchRange(range);
  } catch (err) {
    if (!(err instanceof FreezeNodeError) || !err.rangeRefused || range.from >= range.to) throw err;
    onRefused(range.to - range.from + 1n);
    const mid = range.from + (range.to - range.from) / 2n;
    const older = await logsSplitting(fetchRange, { from: range.from, to: mid }, onRefused);
    const newer = await logsSplitting(fetchRange, { from: mid + 1n, to: range.to }, onRefused);
    return [...older, ...newer];
  }
}

/** The logs with their blocks' times (asked once per block when the node did not put it on the log). */
async function withTimes(node: EvmFreezeNode, logs: FreezeLog[]): Promise<FreezeEvent[]> {
  const times = new Map<bigint, number>();
  for (const log of logs) if (log.blockTimestampMs !== null) times.set(log.block, log.blockTimestampMs);
  for (const log of logs) if (!times.has(log.block)) times.set(log.block, await node.blockTime(log.block));
  return logs
    .map(({ blockTimestampMs: _, ...log }) => ({ ...log, at: isoSeconds(times.get(log.block)!) }))
    .sort(byPosition);
}

async function syncContract(
  deps: SyncDeps & { node: EvmFreezeNode },
  settings: EvmFreezeSettings,
  contract: FreezeContract,
  confirmedHead: bigint,
): Promise<ContractSyncResult> {
  let cursor: FreezeCursor | null = await deps.store.cursor(contract);
  const firstWindow = confirmedHead - BigInt(settings.windowBlocks) + 1n;
  let from =
    cursor?.lastBlock != null ? cursor.lastBlock + 1n : (settings.startBlock ?? (firstWindow > 0n ? firstWindow : 0n));
  const result: ContractSyncResult = {
    chain: settings.chain,
    token: contract.token,
    contract: contract.contract,
    from: from.toString(),
    to: cursor?.lastBlock?.toString() ?? null,
    windows: 0,
    events: 0,
    changed: 0,
    caughtUp: false,
  };
  let size = BigInt(settings.windowBlocks);
  while (from <= confirmedHead && result.windows < MAX_WINDOWS_PER_RUN) {
    deps.signal?.throwIfAborted();
    const to = from + size - 1n < confirmedHead ? from + size - 1n : confirmedHead;
    const logs = await logsSplitting(
      (range) => deps.node.freezeLogs(contract.token, contract.contract, range.from, range.to),
      { from, to },
      // Later windows ask for no more than the node accepted.
      (refused) => (size = refused / 2n > 0n ? refused / 2n : 1n),
    );
    const events = await withTimes(deps.node, logs);
    const next: FreezeCursor = { lastBlock: to, lastBlockTimestamp: null };
    const applied = await deps.store.applyWindow(contract, cursor, events, next);
    if (!applied) {
      deps.log?.warn('freeze cursor moved by another run; this run stops', { ...contract });
      return result;
    }
    cursor = next;
    Object.assign(result, {
      to: to.toString(),
      windows: result.windows + 1,
      events: result.events + events.length,
      changed: result.changed + applied.changed,
    });
    deps.progress?.();
    from = to + 1n;
  }
  result.caughtUp = from > confirmedHead;
  return result;
}

/** Refuses a node of another network: its blocks would move this network's cursors and its logs be named after it. */
async function checkChainId(node: EvmFreezeNode, settings: EvmFreezeSettings): Promise<void> {
  const actual = await node.chainId();
  if (actual === settings.chainId) return;
  throw new AppError(
    SCREENING_ERRORS.CHAIN_UNAVAILABLE,
    `${settings.rpcVariable} points at a node for chain id ${actual}, not ${settings.chainId} (${settings.chain}): ` +
      `refusing to read ${settings.chain}'s freezes from another chain`,
    { retryable: false },
  );
}

/**
 * Reads one EVM network's contracts' freeze events, each from its cursor to the confirmed head (head −
 * confirmations) in windows of blocks; each window's events and the cursor move commit together, so a run that
 * stops half way (a node outage, a worker restart) resumes where the last window ended, and applies nothing twice.
 */
export async function syncEvmFreezes(
  deps: SyncDeps & { node: EvmFreezeNode },
  settings: EvmFreezeSettings,
): Promise<ContractSyncResult[]> {
  await checkChainId(deps.node, settings);
  const confirmedHead = (await deps.node.head()) - BigInt(settings.confirmations);
  const results: ContractSyncResult[] = [];
  for (const contract of settings.contracts) {
    results.push(await syncContract(deps, settings, contract, confirmedHead));
  }
  return results;
}
