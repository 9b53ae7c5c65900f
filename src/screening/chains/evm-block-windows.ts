import { EvmNodeError } from './evm-rpc';

/**
 * How far back a plain node is searched: `maxWindows` ranges of `windowBlocks` blocks, newest first; and how many
 * movements one window may keep (the newest), so a hub's window cannot fill a worker's memory.
 */
export interface BlockWindowSettings {
  windowBlocks: number;
  maxWindows: number;
  /** Default DEFAULT_MAX_LOGS_PER_WINDOW. */
  maxLogsPerWindow?: number;
}

/** Infura's own cap on one eth_getLogs answer: a window holding more is as much as a read ever needs. */
export const DEFAULT_MAX_LOGS_PER_WINDOW = 10_000;

export interface BlockRange {
  from: bigint;
  to: bigint;
}

/** The blocks one read may search: the newest windowBlocks × maxWindows up to `head`, never below block 0. */
export function searchSpan(head: bigint, settings: BlockWindowSettings): BlockRange {
  const blocks = BigInt(Math.max(1, settings.windowBlocks)) * BigInt(Math.max(1, settings.maxWindows));
  const from = head - blocks + 1n;
  return { from: from > 0n ? from : 0n, to: head };
}

// How providers say a range holds too much: Infura "query returned more than 10000 results", Alchemy
// "Log response size exceeded… up to a 2K block range", BSC "exceed maximum block range: 5000",
// QuickNode "eth_getLogs is limited to a 10,000 range", Ankr "block range is too wide".
const TOO_MUCH = new RegExp(
  [
    /more than \d+ results|too many (results|logs|blocks)|response size|block range/.source,
    /range (is )?too (large|wide|big)|limited to a? ?[\d,]+/.source,
    /exceed(s|ed)? (the )?max(imum)? (block )?(range|results)|max(imum)? (block )?range/.source,
    /query timeout|timeout exceeded/.source,
  ].join('|'),
  'i',
);
// Rate and quota refusals use some of the same words ("limit exceeded") but a smaller range will not help.
const NOT_ABOUT_SIZE = /rate|request count|credits|quota|too many requests/i;

/** The node refused the range as too large (as opposed to an outage, a rate limit or an unknown method). */
export function isRangeRefusal(err: unknown): boolean {
  return err instanceof EvmNodeError && TOO_MUCH.test(err.message) && !NOT_ABOUT_SIZE.test(err.message);
}

/**
 * Reads `span` newest first, one window of `windowBlocks` at a time, until `readWindow` says it has enough or the
 * span is done. A window the node refuses as too large (isRangeRefusal) is halved and read again, down to one block,
 * and the windows after it start at the size that worked. That size belongs to this walk alone: a hub address
 * whose logs overflow every window must not narrow the search of the next address, or of every later job on the
 * chain. Returns the blocks actually read (newest block to the oldest window finished), null when none was.
 */
export async function walkWindows(
  span: BlockRange,
  windowBlocks: number,
  readWindow: (range: BlockRange) => Promise<'more' | 'enough'>,
): Promise<BlockRange | null> {
  let size = BigInt(Math.max(1, windowBlocks));
  let oldest: bigint | null = null;
  for (let to = span.to; to >= span.from; ) {
    const from = to - size + 1n > span.from ? to - size + 1n : span.from;
    let wanted: 'more' | 'enough';
    try {
      wanted = await readWindow({ from, to });
    } catch (err) {
      if (!isRangeRefusal(err) || from === to) throw err;
      size = (to - from + 1n) / 2n;
      continue;
    }
    oldest = from;
    if (wanted === 'enough') break;
    to = from - 1n;
  }
  return oldest === null ? null : { from: oldest, to: span.to };
}
