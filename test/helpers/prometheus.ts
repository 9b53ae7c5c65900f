/**
 * Reads Prometheus' text exposition format into samples keyed `name{label="value",…}` with labels in
 * name order, so a test can look a series up by name and labels and compare two scrapes.
 */
export type Samples = Map<string, number>;

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

const keyOf = (name: string, labels: Record<string, string>) =>
  `${name}{${Object.keys(labels)
    .sort()
    .map((k) => `${k}="${labels[k]}"`)
    .join(',')}}`;

export function parsePrometheus(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL))
      labels[l[1] as string] = (l[2] as string).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.set(keyOf(m[1] as string, labels), Number(m[3]));
  }
  return samples;
}

/** The sample's value, 0 when the series does not exist yet (a counter never incremented is not exported). */
export function sampleValue(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  return samples.get(keyOf(name, labels)) ?? 0;
}

/** The sum over every series of `name` (all label combinations). */
export function totalOf(samples: Samples, name: string): number {
  let total = 0;
  for (const [key, value] of samples) if (key.startsWith(`${name}{`)) total += value;
  return total;
}

/** Every series of `name` whose value differs between two scrapes, with the difference. */
export function changedSeries(before: Samples, after: Samples, name: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of after) {
    if (!key.startsWith(`${name}{`)) continue;
    const delta = value - (before.get(key) ?? 0);
    if (delta !== 0) out[key.slice(name.length)] = delta;
  }
  return out;
}

export async function scrape(baseUrl: string): Promise<{ samples: Samples; text: string; contentType: string | null }> {
  const res = await fetch(`${baseUrl}/metrics`);
  if (res.status !== 200) throw new Error(`GET ${baseUrl}/metrics answered ${res.status}`);
  const text = await res.text();
  return { samples: parsePrometheus(text), text, contentType: res.headers.get('content-type') };
}
