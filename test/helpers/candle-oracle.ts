import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Candle, CandleView } from '../../src/market/domain/candle';
import { parseCandleFile, type CandleFileFormat } from '../../src/market/domain/candle-files';
import { INTERVAL_MS, type CandleInterval } from '../../src/market/domain/intervals';

/** A shipped candle file as parsed rows (the production parser; the aggregation below is independent). */
export function shippedCandles(path: string, format: CandleFileFormat, interval: CandleInterval): Candle[] {
  return parseCandleFile(gunzipSync(readFileSync(`data/market/${path}`)).toString('utf8'), format, interval);
}

/** A candle as the API returns it, with the open time in ms (easier to compare and bucket). */
export type PlainCandle = Omit<CandleView, 'timestamp'> & { t: number };

export const plain = (c: Candle): PlainCandle => ({
  t: c.openTime,
  open: Number(c.open),
  high: Number(c.high),
  low: Number(c.low),
  close: Number(c.close),
  volume: Number(c.volume),
  trades: c.trades,
});

/** Monday 2000-01-03: an independent statement of where weeks start (the code under test has its own). */
const MONDAY = Date.UTC(2000, 0, 3);
const floorTo = (t: number, size: number) => MONDAY + Math.floor((t - MONDAY) / size) * size;

/**
 * Reference re-aggregation, written separately from the SQL rollup: O first, H max, L min, C last,
 * V and trades summed; only buckets whose whole span lies in [knownStart, knownEnd) are built.
 */
export function aggregate(
  rows: readonly PlainCandle[],
  to: CandleInterval,
  knownStart: number,
  knownEnd: number,
): PlainCandle[] {
  const size = INTERVAL_MS[to];
  const buckets = new Map<number, PlainCandle>();
  for (const r of rows) {
    const t = floorTo(r.t, size);
    if (t < knownStart || t + size > knownEnd) continue;
    const b = buckets.get(t);
    if (!b) buckets.set(t, { ...r, t });
    else {
      b.high = Math.max(b.high, r.high);
      b.low = Math.min(b.low, r.low);
      b.close = r.close;
      b.volume += r.volume;
      b.trades = b.trades === null || r.trades === null ? null : b.trades + r.trades;
    }
  }
  return [...buckets.values()].sort((a, b) => a.t - b.t);
}

/**
 * Same bucket: prices and trades exactly; volume to a relative tolerance, because the exchanges'
 * own coarser files sum in floating point (data/market/SOURCES.md §4: within 1e-6).
 */
export function sameCandle(a: PlainCandle, b: PlainCandle, volumeTolerance = 1e-9): boolean {
  return (
    a.t === b.t &&
    a.open === b.open &&
    a.high === b.high &&
    a.low === b.low &&
    a.close === b.close &&
    a.trades === b.trades &&
    Math.abs(a.volume - b.volume) <= volumeTolerance * Math.max(1e-12, Math.abs(b.volume))
  );
}
