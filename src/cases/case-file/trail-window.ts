import type { Pool } from 'pg';
import type { TrailEntry } from '../trail/trail-entry';

/** The entries of a trail a case file prints: all of them, or the first and the last when there are more. */
export interface TrailWindow {
  /** Entries 1..n, or the first half of the limit. */
  head: TrailEntry[];
  /** The last half of the limit when the trail is longer than the limit; else empty. */
  tail: TrailEntry[];
  /** The trail's length as the case record says (entries after it, written since, are left out). */
  total: number;
}

export type TrailWindowReader = (caseId: string, total: number, limit: number) => Promise<TrailWindow>;

/**
 * One query on the trail's primary key (case_id, seq) for at most `limit` entries, however long the trail: seq
 * 1..total when it fits, else 1..limit/2 and the last limit/2 up to `total` (the length the case record was read
 * with, so the trail printed ends where the case printed stands).
 */
export function createTrailWindowReader(pool: Pool): TrailWindowReader {
  return async (caseId, total, limit) => {
    const half = Math.floor(limit / 2);
    const cut = total > limit;
    const headEnd = cut ? half : total;
    const tailStart = cut ? total - (limit - half) + 1 : total + 1;
    const { rows } = await pool.query<{
      seq: number;
      entry: TrailEntry;
      hash: string;
      signature: TrailEntry['signature'];
    }>(
      `SELECT seq, entry, hash, signature FROM case_trail
       WHERE case_id = $1 AND (seq <= $2 OR seq BETWEEN $3 AND $4) ORDER BY seq`,
      [caseId, headEnd, tailStart, total],
    );
    const entries = rows.map((r) => ({ ...r.entry, hash: r.hash, signature: r.signature }));
    return {
      head: entries.filter((e) => e.seq <= headEnd),
      tail: entries.filter((e) => e.seq >= tailStart),
      total,
    };
  };
}
