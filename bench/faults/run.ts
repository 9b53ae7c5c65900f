/**
 * The fault suite (`npm run test:faults`, CI: `npm run test:faults -- --short`): the real api and worker
 * processes over an embedded Postgres and a Temporal dev server on files (with TEMPORAL_SHAPE=production, the
 * Temporal server on that Postgres: `npm run test:production-shape`), with faults injected into each in turn.
 * Every scenario prints one line of figures; the process exits 1 when any promise did not hold.
 * Options: --short (CI sizes, soak 45 s), --only=worker-kill,soak (a subset), --soak-seconds=N (the soak's
 * length; its first fifth is the warm-up). FAULTS_KEEP=1 keeps the
 * temporary directory (process logs under logs/).
 */
import { startFaultStack, type FaultStack } from './fault-stack';
import { describeShape, temporalShape } from '../../test/helpers/temporal-shape';
import { formatReport, type ScenarioReport } from './report';
import { batchWorkerKill } from './scenarios/batch-worker-kill';
import { caseWorkerKill } from './scenarios/case-worker-kill';
import { duplicateDeliveries } from './scenarios/duplicate-deliveries';
import { postgresRestart } from './scenarios/postgres-restart';
import { soak } from './scenarios/soak';
import { temporalKill } from './scenarios/temporal-kill';
import { workerKill } from './scenarios/worker-kill';

interface Sizes {
  jobs: number;
  concurrency: number;
  /** Items of the batch the batch-worker-kill scenario submits (list-only bitcoin targets). */
  batchItems: number;
  /** Cases the case-worker-kill scenario opens, and the comments its members post on them around the kills. */
  cases: number;
  caseComments: number;
  temporalOutageMs: number;
  webhookSenders: number;
  webhookLoadMs: number;
  postgresOutageMs: number;
  soakMs: number;
  soakWarmUpMs: number;
}

const LONG: Sizes = {
  jobs: 120,
  concurrency: 10,
  batchItems: 1_000,
  cases: 5,
  caseComments: 300,
  temporalOutageMs: 10_000,
  webhookSenders: 20,
  webhookLoadMs: 40_000,
  postgresOutageMs: 10_000,
  soakMs: 600_000,
  soakWarmUpMs: 120_000,
};
const SHORT: Sizes = {
  jobs: 30,
  concurrency: 10,
  batchItems: 300,
  cases: 5,
  caseComments: 100,
  temporalOutageMs: 3_000,
  webhookSenders: 10,
  webhookLoadMs: 15_000,
  postgresOutageMs: 3_000,
  soakMs: 45_000,
  soakWarmUpMs: 15_000,
};

const SCENARIOS: Record<string, (stack: FaultStack, sizes: Sizes) => Promise<ScenarioReport>> = {
  'worker-kill': (stack, sizes) => workerKill(stack, sizes),
  'batch-worker-kill': (stack, sizes) => batchWorkerKill(stack, { items: sizes.batchItems }),
  'case-worker-kill': (stack, sizes) => caseWorkerKill(stack, { cases: sizes.cases, comments: sizes.caseComments }),
  'temporal-kill': (stack, sizes) => temporalKill(stack, { ...sizes, outageMs: sizes.temporalOutageMs }),
  'postgres-restart': (stack, sizes) =>
    postgresRestart(stack, {
      senders: sizes.webhookSenders,
      durationMs: sizes.webhookLoadMs,
      outageMs: sizes.postgresOutageMs,
    }),
  'duplicate-deliveries': (stack) => duplicateDeliveries(stack),
  soak: (stack, sizes) => soak(stack, { durationMs: sizes.soakMs, warmUpMs: sizes.soakWarmUpMs }),
};

async function main() {
  const args = process.argv.slice(2);
  const short = args.includes('--short');
  const only = args
    .find((a) => a.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const unknown = only?.filter((name) => !SCENARIOS[name]) ?? [];
  if (unknown.length)
    throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${Object.keys(SCENARIOS).join(', ')}`);
  const soakSeconds = Number(args.find((a) => a.startsWith('--soak-seconds='))?.slice('--soak-seconds='.length) ?? NaN);
  const sizes = {
    ...(short ? SHORT : LONG),
    ...(soakSeconds > 0 ? { soakMs: soakSeconds * 1000, soakWarmUpMs: soakSeconds * 200 } : {}),
  };
  const started = Date.now();

  const stack = await startFaultStack();
  // The servers run detached (so they can be killed as groups): an interrupted run must stop them itself.
  const interrupted = () => {
    console.error('interrupted: stopping the stack');
    void stack.stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  const reports: ScenarioReport[] = [];
  try {
    await stack.startWorker();
    await stack.startApi();
    console.log(
      `fault suite (${short ? 'short' : 'long'} form, ${describeShape(temporalShape())}), ` +
        `stack ready in ${((Date.now() - started) / 1000).toFixed(1)}s; logs in ${stack.root}/logs`,
    );
    for (const [name, scenario] of Object.entries(SCENARIOS)) {
      if (only && !only.includes(name)) continue;
      let report: ScenarioReport;
      try {
        report = await scenario(stack, sizes);
      } catch (err) {
        report = {
          name,
          figures: [],
          failures: [`threw: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`],
          seconds: 0,
        };
      }
      reports.push(report);
      console.log(formatReport(report));
    }
  } finally {
    await stack.stop();
  }
  const failed = reports.filter((r) => r.failures.length > 0);
  console.log(
    `${reports.length - failed.length}/${reports.length} scenarios held in ` +
      `${((Date.now() - started) / 1000).toFixed(1)}s`,
  );
  process.exit(failed.length ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
