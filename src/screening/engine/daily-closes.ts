/** One close: the price when a bucket ended (`at`, ms) and what it is (the bucket's day or open). */
export interface ClosePoint {
  at: number;
  usd: number;
}

const DAY_MS = 86_400_000;
const ROW = /^(\d{4}-\d{2}-\d{2}),([0-9.]+),([0-9.]+)$/;

/**
 * Parses `date,open,close` rows (UTC days). A day's close is the price at the end of that day, so it
 * is valid from the next midnight on: that is the `at` of its point.
 */
export function parseDailyCloses(csv: string, file: string): ClosePoint[] {
  const lines = csv.trim().split(/\r?\n/);
  if (lines[0] !== 'date,open,close') throw new Error(`${file}: expected the header "date,open,close"`);
  const points = lines.slice(1).map((line, i) => {
    const m = ROW.exec(line);
    const usd = Number(m?.[3]);
    if (!m || !(usd > 0))
      throw new Error(`${file} line ${i + 2}: expected "YYYY-MM-DD,open,close" with a positive close, got "${line}"`);
    return { at: Date.parse(`${m[1]}T00:00:00Z`) + DAY_MS, usd };
  });
  for (let i = 1; i < points.length; i++) {
    if (points[i]!.at <= points[i - 1]!.at) throw new Error(`${file} line ${i + 2}: dates must ascend`);
  }
  return points;
}

/** The latest close at or before `atMs` (binary search over ascending points); null before the first. */
export function closeAtOrBefore(points: readonly ClosePoint[], atMs: number): ClosePoint | null {
  let lo = 0;
  let hi = points.length - 1;
  let found: ClosePoint | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = points[mid]!;
    if (p.at <= atMs) {
      found = p;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
