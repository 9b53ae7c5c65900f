import { CANDLE_INTERVALS, finerInterval, type CandleInterval } from './intervals';
import { bucketsTouching, intersectSpans, mergeSpans, subtractSpans, wholeBucketsInside, type Span } from './ranges';

/** Build `interval` buckets in `spans` by aggregating the served rows of `from`. */
export interface RollupStep {
  interval: CandleInterval;
  from: CandleInterval;
  spans: Span[];
}

export interface RollupPlan {
  /** Per interval, where its served candles are known (native data, or whole buckets of known finer data). */
  coverage: Record<CandleInterval, Span[]>;
  steps: RollupStep[];
}

export const EVERYTHING: Span = { start: Date.UTC(1970, 0, 5), end: Date.UTC(2200, 0, 6) };

/**
 * Decides which rollup buckets to (re)build from the native spans of one symbol. An interval is
 * known where the exchange published it (native) or where every part of a bucket is known one
 * interval finer; native rows always win, and a bucket that is only partly known is not built, so
 * a rolled-up candle never silently misses trades. Steps run finest first: each reads the rows the
 * previous one wrote.
 */
export function planRollups(native: Partial<Record<CandleInterval, Span[]>>, window: Span = EVERYTHING): RollupPlan {
  const coverage = {} as Record<CandleInterval, Span[]>;
  const steps: RollupStep[] = [];
  for (const interval of CANDLE_INTERVALS) {
    const own = mergeSpans(native[interval] ?? []);
    const from = finerInterval(interval);
    const fromFiner = from ? wholeBucketsInside(coverage[from], interval) : [];
    coverage[interval] = mergeSpans([...own, ...fromFiner]);
    if (!from || fromFiner.length === 0) continue;
    // Data only grows, so buckets outside the touched window are already right.
    const spans = intersectSpans(subtractSpans(fromFiner, own), bucketsTouching(window, interval));
    if (spans.length > 0) steps.push({ interval, from, spans });
  }
  return { coverage, steps };
}
