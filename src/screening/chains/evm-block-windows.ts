import { EvmNodeError } from './evm-rpc';

/** How far back a plain node is searched: `maxWindows` ranges of `windowBlocks` blocks, newest first. */
export interface BlockWindowSettings {
  windowBlocks: number;
  maxWindows: number;
}

export interface BlockRange {
  from: bigint;
  to: bigint;
}

/** [head−W+1, head], the range before it, … at most maxWindows of them, never below block 0. */
export function blockWindows(head: bigint, settings: BlockWindowSettings): BlockRange[] {
  const size = BigInt(Math.max(1, settings.windowBlocks));
  const ranges: BlockRange[] = [];
  for (let to = head; to >= 0n && ranges.length < settings.maxWindows; to -= size) {
    ranges.push({ from: to - size + 1n > 0n ? to - size + 1n : 0n, to });
  }
  return ranges;
}

// How providers say a range holds too much: Infura "query returned more than 10000 results", Alchemy
// "Log response size exceeded… up to a 2K block range", BSC "exceed maximum block range: 5000",
// QuickNode "eth_getLogs is limited to a 10,000 range", Ankr "block range is too wide".
const TOO_MUCH =
  /more than \d+ results|too many (results|logs|blocks)|response size|block range|range (is )?too (large|wide|big)|limited to a? ?[\d,]+|exceed(s|ed)? (the )?max(imum)? (block )?(range|results)|max(imum)? (block )?range|query timeout|timeout exceeded/i;
// Rate and quota refusals use some of the same words ("limit exceeded") but a smaller range will not help.
const NOT_ABOUT_SIZE = /rate|request count|credits|quota|too many requests/i;

/** The node refused the range as too large (as opposed to an outage, a rate limit or an unknown method). */
export function isRangeRefusal(err: unknown): boolean {
  return err instanceof EvmNodeError && TOO_MUCH.test(err.message) && !NOT_ABOUT_SIZE.test(err.message);
}

/**
 * Runs `fetchRange` over [from, to]; when the node refuses the range as too large, halves it and
 * fetches the newer half first, down to single blocks. `onSplit` learns the size that was refused, so
 * the caller can shrink later windows instead of being refused again.
 */
export async function fetchSplitting<T>(
  fetchRange: (range: BlockRange) => Promise<T[]>,
  range: BlockRange,
  onSplit: (refusedSize: bigint) => void = () => undefined,
): Promise<T[]> {
  try {
    return await fetchRange(range);
  } catch (err) {
    if (!isRangeRefusal(err) || range.from >= range.to) throw err;
    onSplit(range.to - range.from + 1n);
    const mid = range.from + (range.to - range.from) / 2n;
    const newer = await fetchSplitting(fetchRange, { from: mid + 1n, to: range.to }, onSplit);
    const older = await fetchSplitting(fetchRange, { from: range.from, to: mid }, onSplit);
    return [...older, ...newer];
  }
}
