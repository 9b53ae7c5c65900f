/** Timing helpers shared by every figure: one percentile definition, one way to keep N requests in flight. */

/** Nearest-rank percentile (p in 0..100); NaN for no samples, so an empty figure cannot pass as 0 ms. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/** Milliseconds `task` took, with its result. */
export async function timed<T>(task: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const t0 = performance.now();
  const result = await task();
  return { ms: performance.now() - t0, result };
}

/**
 * Runs `task(0..total-1)` with `concurrency` in flight (a closed loop: each lane starts its next item
 * when the last one ends) and returns each item's latency and the wall time of the whole run.
 * A failing task fails the run: a benchmark that quietly counts errors as fast answers lies.
 */
export async function inFlight(
  total: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      while (next < total) {
        const index = next++;
        const t0 = performance.now();
        await task(index);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, wallMs: performance.now() - started };
}

/** Items per second over a wall time in ms. */
export const perSecond = (items: number, wallMs: number): number => items / (wallMs / 1000);

export interface Run {
  latencies: number[];
  wallMs: number;
}

/**
 * Measures `value` and `baseline` with the same total and concurrency in four rounds, A B B A, and
 * sums each side: on a machine whose load drifts during the run (shared CI, other jobs) the drift
 * then weighs on both sides alike instead of on whichever ran second.
 */
export async function sideBySide(
  total: number,
  concurrency: number,
  value: (index: number) => Promise<void>,
  baseline: (index: number) => Promise<void>,
): Promise<{ value: Run; baseline: Run }> {
  const first = Math.floor(total / 2);
  const a1 = await inFlight(first, concurrency, value);
  const b1 = await inFlight(first, concurrency, baseline);
  const b2 = await inFlight(total - first, concurrency, (i) => baseline(first + i));
  const a2 = await inFlight(total - first, concurrency, (i) => value(first + i));
  const sum = (x: Run, y: Run): Run => ({ latencies: [...x.latencies, ...y.latencies], wallMs: x.wallMs + y.wallMs });
  return { value: sum(a1, a2), baseline: sum(b1, b2) };
}
