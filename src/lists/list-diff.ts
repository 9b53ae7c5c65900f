import { entryKey, type ListEntry } from './list-entry';

export interface ListDiff {
  added: ListEntry[];
  removed: ListEntry[];
  changed: { before: ListEntry; after: ListEntry }[];
}

/** What else about a listed address can change between issues without it being delisted and listed again. */
const sameFacts = (a: ListEntry, b: ListEntry): boolean =>
  a.sdnName === b.sdnName &&
  a.sdnType === b.sdnType &&
  a.asset === b.asset &&
  a.designated === b.designated &&
  a.programs.length === b.programs.length &&
  [...a.programs].sort().join(';') === [...b.programs].sort().join(';');

/** The difference between the active entries and a new issue's, by entry identity (chain, address, party). */
export function diffEntries(current: readonly ListEntry[], next: readonly ListEntry[]): ListDiff {
  const before = new Map(current.map((e) => [entryKey(e), e]));
  const after = new Map(next.map((e) => [entryKey(e), e]));
  const diff: ListDiff = { added: [], removed: [], changed: [] };
  for (const [key, entry] of after) {
    const old = before.get(key);
    if (!old) diff.added.push(entry);
    else if (!sameFacts(old, entry)) diff.changed.push({ before: old, after: entry });
  }
  for (const [key, entry] of before) if (!after.has(key)) diff.removed.push(entry);
  return diff;
}
