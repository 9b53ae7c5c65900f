/** What one scenario measured and which of its promises did not hold. */
export interface ScenarioReport {
  name: string;
  figures: [string, string | number][];
  failures: string[];
  seconds: number;
}

/** Collects a scenario's figures and broken promises as it runs; `finish` stamps the elapsed time. */
export function startReport(name: string) {
  const started = Date.now();
  const figures: [string, string | number][] = [];
  const failures: string[] = [];
  return {
    figure(label: string, value: string | number) {
      figures.push([label, value]);
    },
    /** Records `message` as a failure unless `holds`. */
    require(holds: boolean, message: string) {
      if (!holds) failures.push(message);
    },
    fail(message: string) {
      failures.push(message);
    },
    finish(): ScenarioReport {
      return { name, figures, failures, seconds: (Date.now() - started) / 1000 };
    },
  };
}

export type Report = ReturnType<typeof startReport>;

export function formatReport(r: ScenarioReport): string {
  const figures = [...r.figures, ['time', `${r.seconds.toFixed(1)}s`] as [string, string]]
    .map(([k, v]) => `${k}=${v}`)
    .join('  ');
  const head = `${r.failures.length ? 'FAIL' : 'ok  '} ${r.name.padEnd(22)} ${figures}`;
  return [head, ...r.failures.map((f) => `       ✗ ${f}`)].join('\n');
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
