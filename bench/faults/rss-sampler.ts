import type { ServiceProcess } from '../../test/helpers/service-process';

export interface RssGrowth {
  name: string;
  startMb: number;
  endMb: number;
  percent: number;
}

/** Least-squares line through (t, y): its values at `from` and `to`. */
function trend(points: { t: number; y: number }[], from: number, to: number): [number, number] {
  const n = points.length;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.t - mt) ** 2, 0);
  const slope = sxx > 0 ? points.reduce((s, p) => s + (p.t - mt) * (p.y - my), 0) / sxx : 0;
  return [my + slope * (from - mt), my + slope * (to - mt)];
}

/** Samples the resident memory of the service processes every `everyMs` while a soak runs. */
export function startRssSampler(processes: ServiceProcess[], everyMs: number) {
  const samples: { at: number; kb: Map<string, number | null> }[] = [];
  const take = () => samples.push({ at: Date.now(), kb: new Map(processes.map((p) => [p.name, p.rssKb()])) });
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop: () => clearInterval(timer),
    /**
     * Growth from the end of the warm-up to the end, read off a straight line fitted through every sample
     * taken after `warmedUpAt`: a garbage-collected heap saws up and down by a third between collections,
     * so two single readings (or medians of a few) would measure where in its cycle the heap happened to be.
     */
    growthSince(warmedUpAt: number): RssGrowth[] {
      const window = samples.filter((s) => s.at >= warmedUpAt);
      const end = window[window.length - 1]?.at ?? warmedUpAt;
      return processes.map((p) => {
        const points = window.flatMap((s) => {
          const kb = s.kb.get(p.name);
          return typeof kb === 'number' ? [{ t: s.at, y: kb / 1024 }] : [];
        });
        if (points.length < 3) return { name: p.name, startMb: NaN, endMb: NaN, percent: NaN };
        const [startMb, endMb] = trend(points, warmedUpAt, end);
        return { name: p.name, startMb, endMb, percent: ((endMb - startMb) / startMb) * 100 };
      });
    },
    /** Every sample as "seconds api-MB worker-MB" lines (FAULTS_RSS_DUMP=1), for a look at the curve. */
    dump: () =>
      samples
        .map(
          (s) =>
            `${((s.at - (samples[0]?.at ?? 0)) / 1000).toFixed(0)} ` +
            `${[...s.kb.values()].map((kb) => ((kb ?? 0) / 1024).toFixed(0)).join(' ')}`,
        )
        .join('\n'),
  };
}
