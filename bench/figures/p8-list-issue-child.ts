/**
 * P8's measurement, in a process of its own (as `npm run lists:update` loads an issue): the bench process also
 * holds the api, the worker and its workflow cache, whose memory would bury the loader's. Reads the database and
 * the issue from the environment, prints one JSON line (P8Measurement) on stdout.
 *
 * Rounds B A B: the read-only pass (decompress and read the same bytes through node, no parsing) before and after
 * the parse+apply, so a machine that gets busier weighs on both sides.
 */
import type { Readable } from 'node:stream';
import { createListStore } from '../../src/lists/list-store';
import { openSdnSource } from '../../src/lists/ofac/sdn-source';
import { refreshOfacList } from '../../src/lists/refresh-list';
import { createPool } from '../../src/platform/db/pool';
import type { LogFields, Logger } from '../../src/platform/logging/logger';

export interface P8Measurement {
  readMs: [number, number];
  /** Peak RSS of the read-only pass before the parse (the one the parse's garbage cannot inflate). */
  readPeakRss: number;
  bytes: number;
  wallMs: number;
  parseMs: number;
  applyMs: number;
  peakRss: number;
  rssBefore: number;
  /** The kernel's high-water mark of the whole child (every pass), a check on the 50 ms samples. */
  maxRss: number;
  entries: number;
  diff: { added: number; removed: number; changed: number };
}

const SAMPLE_EVERY_MS = 50;

/** Runs `task` while sampling this process's RSS; the peak includes one sample before and one after. */
async function withPeakRss<T>(task: () => Promise<T>): Promise<{ ms: number; peak: number; result: T }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, SAMPLE_EVERY_MS);
  const t0 = performance.now();
  try {
    const result = await task();
    return { ms: performance.now() - t0, peak: Math.max(peak, process.memoryUsage().rss), result };
  } finally {
    clearInterval(sampler);
  }
}

async function readOnly(issue: string): Promise<number> {
  let bytes = 0;
  for await (const chunk of (await openSdnSource(issue)) as Readable) bytes += (chunk as Buffer).length;
  return bytes;
}

/** refreshOfacList reports its parse and apply times only in its log line; this keeps that line's fields. */
function capturingLogger(lines: LogFields[]): Logger {
  const keep = (_msg: string, fields?: LogFields) => void lines.push(fields ?? {});
  const log: Logger = { debug: keep, info: keep, warn: keep, error: keep, child: () => log, level: 'info' };
  return log;
}

async function main(): Promise<void> {
  const databaseUrl = process.env.P8_DATABASE_URL;
  const issue = process.env.P8_ISSUE;
  if (!databaseUrl || !issue) throw new Error('P8_DATABASE_URL and P8_ISSUE are required');
  const pool = createPool(databaseUrl, 4);
  try {
    const before = await withPeakRss(() => readOnly(issue));
    const rssBefore = process.memoryUsage().rss;
    const lines: LogFields[] = [];
    const load = await withPeakRss(() =>
      refreshOfacList(
        { pool, lists: createListStore(pool), log: capturingLogger(lines) },
        { list: 'ofac', source: issue, force: true },
      ),
    );
    const after = await withPeakRss(() => readOnly(issue));
    const outcome = load.result;
    if (outcome.status !== 'applied') throw new Error(`the issue was not applied: ${outcome.status}`);
    const logged = lines.find((l) => typeof l.parsedMs === 'number') ?? {};
    const measurement: P8Measurement = {
      readMs: [before.ms, after.ms],
      readPeakRss: before.peak,
      bytes: before.result,
      wallMs: load.ms,
      parseMs: Number(logged.parsedMs),
      applyMs: Number(logged.appliedMs),
      peakRss: load.peak,
      rssBefore,
      maxRss: process.resourceUsage().maxRSS * 1024,
      entries: outcome.version.entryCount,
      diff: {
        added: outcome.diff.added.length,
        removed: outcome.diff.removed.length,
        changed: outcome.diff.changed.length,
      },
    };
    process.stdout.write(`${JSON.stringify(measurement)}\n`);
  } finally {
    await pool.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
