/**
 * `npm run bench`: every figure of the service (P1–P12) in one run on one local stack (embedded
 * Postgres, Temporal dev server, api + worker, as the tests start it), each beside its baseline
 * measured in the same run; then P1, P2 and P11 again on a stack of the production shape (the Temporal server on
 * that Postgres, as `npm run test:production-shape` runs it), their rows marked "(production shape)". Printed as
 * one markdown table plus a JSON line. Sizes and shapes: bench/lib/bench-config.ts.
 */
import os from 'node:os';
import globalSetup from '../test/setup/global-setup';
import globalTeardown from '../test/setup/global-teardown';
import { startTestStack } from '../test/helpers/test-stack';
import { installTemporalRuntime } from '../src/platform/temporal/temporal-runtime';
import { testPayPalVerifier, WEBHOOK_ENV } from '../test/helpers/webhooks';
import { startBareInsertServer } from './bare/express-insert';
import { startBareWorkflows } from './bare/worker';
import { measureThroughput } from './figures/p1-throughput';
import { measureCompletionLatency } from './figures/p2-completion-latency';
import { measurePollLatency } from './figures/p3-poll-latency';
import { measureWebhookAcks } from './figures/p4-webhook-ack';
import { measureHistoryWebhookThroughput } from './figures/p5-history-webhook-throughput';
import { measureCandles } from './figures/p6-candles';
import { measureCrawl } from './figures/p7-crawl';
import { measureListIssue } from './figures/p8-list-issue';
import { measureMonitorNotice } from './figures/p9-monitor-notice';
import { measureBatchThroughput } from './figures/p10-batch';
import { measureScaleOut } from './figures/p11-scale-out';
import { measureEntities } from './figures/p12-entities';
import { describeShape, type TemporalShape } from '../test/helpers/temporal-shape';
import { loadBenchConfig, PRODUCTION_SHAPE_FIGURES, type BenchConfig, type FigureId } from './lib/bench-config';
import type { BenchContext } from './lib/context';
import { jsonLine, markdownTable, type Figure } from './lib/report';

const FIGURES: Record<FigureId, (ctx: BenchContext) => Promise<Figure[]>> = {
  p1: measureThroughput,
  p2: measureCompletionLatency,
  p3: measurePollLatency,
  p4: measureWebhookAcks,
  p5: measureHistoryWebhookThroughput,
  p6: measureCandles,
  p7: measureCrawl,
  p8: measureListIssue,
  p9: measureMonitorNotice,
  p10: measureBatchThroughput,
  p11: measureScaleOut,
  p12: measureEntities,
};

const HISTORY_WEBHOOK_SECRET = 'bench-activity-secret-0123456789';
const HISTORY_CLERK_USER = 'user_benchActivity0000000001';

/** The figures `ids` on a stack of its own over `shape`'s Temporal, stopped before the next shape starts. */
async function measureOnShape(
  shape: TemporalShape,
  ids: readonly FigureId[],
  config: BenchConfig,
  progress: (line: string) => void,
): Promise<Figure[]> {
  progress(`starting embedded Postgres and the ${describeShape(shape)}`);
  process.env.TEMPORAL_SHAPE = shape;
  await globalSetup();
  const stack = await startTestStack({
    env: { ...WEBHOOK_ENV, ACTIVITY_WEBHOOK_SECRET: HISTORY_WEBHOOK_SECRET },
    verifiers: { paypalVerifier: testPayPalVerifier() },
  });
  const historyUser = await stack.createUser({ clerkUserId: HISTORY_CLERK_USER });
  const bare = await startBareWorkflows({
    client: stack.temporal,
    address: stack.config.TEMPORAL_ADDRESS as string,
    maxConcurrentActivities: Math.max(2, stack.config.DATABASE_POOL_SIZE),
  });
  const bareInsert = await startBareInsertServer(stack.pool, historyUser.id);
  const ctx: BenchContext = {
    stack,
    bare,
    bareInsert,
    config,
    historyWebhookSecret: HISTORY_WEBHOOK_SECRET,
    historyClerkUserId: HISTORY_CLERK_USER,
    progress,
  };
  const figures: Figure[] = [];
  try {
    for (const id of ids) figures.push(...(await FIGURES[id](ctx)));
  } finally {
    await bareInsert.close();
    await bare.stop();
    await stack.stop();
    await globalTeardown();
  }
  return shape === 'dev' ? figures : figures.map((f) => ({ ...f, id: `${f.id} (production shape)` }));
}

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const started = Date.now();
  const progress = (line: string) =>
    process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

  // Before the setup's workflow bundling, which would otherwise create the SDK runtime at INFO and flood
  // the table's output.
  installTemporalRuntime('warn');
  const figures: Figure[] = [];
  for (const shape of config.BENCH_SHAPES) {
    const ids =
      shape === 'dev' ? config.BENCH_ONLY : config.BENCH_ONLY.filter((id) => PRODUCTION_SHAPE_FIGURES.includes(id));
    if (ids.length > 0) figures.push(...(await measureOnShape(shape, ids, config, progress)));
  }

  const machine =
    `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ` +
    `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`;
  console.log(
    `\nchainscreen benchmark, ${new Date().toISOString()}, ${machine}, ` +
      `${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
  console.log(markdownTable(figures));
  console.log(`\n${jsonLine(figures, { at: new Date().toISOString(), machine, config })}`);
}

main().then(
  // The Temporal native runtime keeps a handle open after every connection is closed (sdk-typescript#928).
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
