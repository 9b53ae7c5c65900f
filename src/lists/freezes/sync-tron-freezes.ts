import { byPosition } from './freeze-event';
import type { FreezeContract, FreezeCursor } from './freeze-store';
import type { ContractSyncResult } from './freeze-sync-types';
import { MAX_WINDOWS_PER_RUN, type SyncDeps } from './sync-evm-freezes';
import { TRON_FREEZE_EVENT_NAMES, type TronFreezeEvents } from './trongrid-freeze-events';

export interface TronFreezeSettings {
  contract: FreezeContract;
  /** Where the reader starts without a cursor (ms); null: one window before now. */
  startAt: number | null;
}

/** One read spans a day of block time at most, and a reader without a cursor starts a day back. */
export const TRON_WINDOW_MS = 24 * 3_600_000;
/**
 * How far behind now the reader stays. It asks for confirmed events only (a block 19 of 27 super
 * representatives built on, about a minute); the margin lets TronGrid's indexer catch up, so no confirmed event
 * can appear later with a block time the cursor has passed.
 */
export const TRON_SETTLE_MS = 2 * 60_000;

/**
 * Reads the contract's AddedBlackList, RemovedBlackList and DestroyedBlackFunds events from its cursor (a block
 * time, ms) to now − TRON_SETTLE_MS, a window at a time; each window's events and the cursor commit together.
 * A window is read from its start inclusive, so an event at the boundary is read twice and applied once.
 */
export async function syncTronFreezes(
  deps: SyncDeps & { events: TronFreezeEvents; now: () => number },
  settings: TronFreezeSettings,
): Promise<ContractSyncResult[]> {
  const { contract } = settings;
  const settledUntil = deps.now() - TRON_SETTLE_MS;
  let cursor: FreezeCursor | null = await deps.store.cursor(contract);
  let from = cursor?.lastBlockTimestamp ?? settings.startAt ?? settledUntil - TRON_WINDOW_MS;
  const result: ContractSyncResult = {
    chain: 'tron',
    token: contract.token,
    contract: contract.contract,
    from: String(from),
    to: cursor?.lastBlockTimestamp != null ? String(cursor.lastBlockTimestamp) : null,
    windows: 0,
    events: 0,
    changed: 0,
    caughtUp: false,
  };
  while (from < settledUntil && result.windows < MAX_WINDOWS_PER_RUN) {
    deps.signal?.throwIfAborted();
    let to = Math.min(from + TRON_WINDOW_MS, settledUntil);
    const reads = [];
    for (const name of TRON_FREEZE_EVENT_NAMES) {
      reads.push(await deps.events.read(contract.contract, name, from, to, deps.signal));
    }
    // A name with more pages than one read takes ends the window at its last event read; events of the other
    // names after it wait for the next window, so events are applied in order (a destroy is never skipped as
    // older than a later event applied before it).
    for (const read of reads)
      if (read.truncatedAt !== null && read.truncatedAt > from) to = Math.min(to, read.truncatedAt);
    const events = reads
      .flatMap((read) => read.events)
      .filter((event) => Date.parse(event.at) <= to)
      .sort(byPosition);
    const newestBlock = events.at(-1)?.block ?? cursor?.lastBlock ?? null;
    const next: FreezeCursor = { lastBlock: newestBlock, lastBlockTimestamp: to };
    const applied = await deps.store.applyWindow(contract, cursor, events, next);
    if (!applied) {
      deps.log?.warn('freeze cursor moved by another run; this run stops', { ...contract });
      return [result];
    }
    cursor = next;
    Object.assign(result, {
      to: String(to),
      windows: result.windows + 1,
      events: result.events + events.length,
      changed: result.changed + applied.changed,
    });
    deps.progress?.();
    from = to;
  }
  result.caughtUp = from >= settledUntil;
  return [result];
}
