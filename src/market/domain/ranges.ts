import { bucketCeil, bucketStart, type CandleInterval } from './intervals';

/** A half-open span [start, end) in ms. */
export interface Span {
  start: number;
  end: number;
}

/** Sorted, with overlapping and touching spans joined. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.start < s.end).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** The whole buckets of `interval` inside each span (a bucket only partly known is left out). */
export function wholeBucketsInside(spans: readonly Span[], interval: CandleInterval): Span[] {
  return spans
    .map((s) => ({ start: bucketCeil(s.start, interval), end: bucketStart(s.end, interval) }))
    .filter((s) => s.start < s.end);
}

/** Every bucket of `interval` that touches the span. */
export function bucketsTouching(span: Span, interval: CandleInterval): Span {
  return { start: bucketStart(span.start, interval), end: bucketCeil(span.end, interval) };
}

/** Parts of `spans` not covered by `minus` (both merged first). */
export function subtractSpans(spans: readonly Span[], minus: readonly Span[]): Span[] {
  const cuts = mergeSpans(minus);
  const out: Span[] = [];
  for (const s of mergeSpans(spans)) {
    let start = s.start;
    for (const c of cuts) {
      if (c.end <= start || c.start >= s.end) continue;
      if (c.start > start) out.push({ start, end: c.start });
      start = Math.max(start, c.end);
    }
    if (start < s.end) out.push({ start, end: s.end });
  }
  return out;
}

export function intersectSpans(spans: readonly Span[], window: Span): Span[] {
  return spans
    .map((s) => ({ start: Math.max(s.start, window.start), end: Math.min(s.end, window.end) }))
    .filter((s) => s.start < s.end);
}
