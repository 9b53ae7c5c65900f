import type { TrailEntry } from '../trail/trail-entry';

/** `2026-11-27 10:20:00.000 UTC`-like: ISO 8601 in UTC, as every time in the file. */
export const iso = (d: Date | string | null | undefined): string => {
  if (d === null || d === undefined) return '-';
  const date = typeof d === 'string' ? new Date(d) : d;
  return Number.isNaN(date.getTime()) ? String(d) : date.toISOString();
};

export const yesNo = (b: boolean): string => (b ? 'yes' : 'no');

export const thousands = (n: number): string => n.toLocaleString('en-US');

/** Who acted, as a trail entry says. */
export const actorOf = (entry: TrailEntry): string =>
  entry.actor.kind === 'system'
    ? 'system (the case workflow)'
    : `member ${entry.actor.member_id}\n(${entry.actor.role})`;

/** The role `memberId` acted in, from the entries printed (the last one wins), or null. */
export function roleIn(entries: TrailEntry[], memberId: string | null): string | null {
  if (!memberId) return null;
  let role: string | null = null;
  for (const e of entries) if (e.actor.kind === 'member' && e.actor.member_id === memberId) role = e.actor.role;
  return role;
}

/** `text` cut at `max` characters, saying how long it was. */
export const clip = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max)}... (${thousands(text.length)} characters, cut)`;
