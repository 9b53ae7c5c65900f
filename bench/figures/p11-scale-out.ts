import { cpus } from 'node:os';
import { connectRecording } from '../../test/helpers/realtime-client';
import {
  startServiceCluster,
  type ApiProcess,
  type ServiceCluster,
  type WorkerProcess,
} from '../../test/helpers/service-cluster';
import type { BenchContext } from '../lib/context';
import { submitAndAwaitCompletion } from '../lib/jobs';
import { addCpuSpan, cpuSeconds, findProcess, machineBusySeconds, readCpu, type CpuGroups } from '../lib/process-cpu';
import type { Figure } from '../lib/report';
import { inFlight, perSecond } from '../lib/stats';

const WARM_UP = 10;

/** One shape of the deployment: its rounds' wall time and the CPU seconds each group of processes spent in them. */
interface Shape {
  label: string;
  jobs: number;
  wallMs: number;
  cpu: Record<string, number>;
}

const shape = (label: string): Shape => ({ label, jobs: 0, wallMs: 0, cpu: {} });

/** Where the CPU went in a shape, in % of one core, and how busy the whole machine (every process) was. */
function cpuNote(s: Shape): string {
  const percent = (seconds = 0) => `${((seconds / (s.wallMs / 1000)) * 100).toFixed(0)}%`;
  const { machine, ...groups } = s.cpu;
  const parts = Object.entries(groups).map(([name, seconds]) => `${name} ${percent(seconds)}`);
  return `CPU with ${s.label}: ${parts.join(', ')}; machine busy ${percent(machine)} of ${cpus().length * 100}%`;
}

/**
 * P11: scale-out on one Temporal and one Postgres, with real `npm run worker` / `npm run api` processes on a task
 * queue of their own. Completed jobs/s with two worker processes ÷ one (the same jobs through the same api process),
 * and two api + two worker processes ÷ one of each (submits alternate between the apis; the completions come as
 * socket events on the first api, fanned out from Postgres). Rounds run A B C C B A so load drift weighs on every
 * shape alike. The notes say where the CPU went: when the Temporal dev server, Postgres and the processes already
 * keep every core busy (2 here), a second worker has no idle core to run on.
 */
export async function measureScaleOut(ctx: BenchContext): Promise<Figure[]> {
  const { stack, config } = ctx;
  const half = Math.floor(config.BENCH_JOBS / 2);
  const concurrency = config.BENCH_JOBS_CONCURRENCY;
  const cluster: ServiceCluster = await startServiceCluster({
    databaseUrl: stack.config.DATABASE_URL as string,
    temporalAddress: stack.config.TEMPORAL_ADDRESS as string,
  });
  try {
    ctx.progress('P11: starting a worker process and an api process');
    const workers: WorkerProcess[] = [await cluster.startWorker()];
    const apis: ApiProcess[] = [await cluster.startApi()];
    const total = 4 * WARM_UP + 6 * half;
    const user = await stack.createUser({ credits: total });
    const socket = await connectRecording((apis[0] as ApiProcess).url, user.key);
    const groups = cpuGroups(stack.config, workers, apis);
    const job = (i: number) => {
      const api = apis[i % apis.length] as ApiProcess;
      return submitAndAwaitCompletion({ http: api.http }, user.key, socket).then(() => undefined);
    };
    const warmUp = () => inFlight(WARM_UP, concurrency, job);
    const round = async (s: Shape) => {
      const start = readCpu(groups);
      const run = await inFlight(half, concurrency, job);
      addCpuSpan(s.cpu, start, readCpu(groups));
      s.jobs += half;
      s.wallMs += run.wallMs;
    };
    const [one, two, twoApis] = [shape('1 worker'), shape('2 workers'), shape('2 apis + 2 workers')];
    try {
      await warmUp();
      ctx.progress(`P11: ${half} jobs per round, ${concurrency} in flight: 1 worker, 2 workers, 2 apis, and back`);
      await round(one);
      workers.push(await cluster.startWorker());
      await warmUp();
      await round(two);
      apis.push(await cluster.startApi());
      await warmUp();
      await round(twoApis);
      await round(twoApis);
      await cluster.stopProcess((apis.pop() as ApiProcess).process);
      await round(two);
      await cluster.stopProcess((workers.pop() as WorkerProcess).process);
      await warmUp();
      await round(one);
    } catch (err) {
      throw new Error(`${(err as Error).message} (the processes' logs: ${cluster.logDir})`, { cause: err });
    } finally {
      socket.close();
    }
    const once = await completedOnce(ctx, cluster, user.id, total);
    const perSec = (s: Shape) => perSecond(s.jobs, s.wallMs);
    return [
      {
        id: 'P11',
        figure: `completed jobs/s, 2 worker processes ÷ 1 (one api process, ${concurrency} in flight)`,
        value: perSec(two),
        baseline: perSec(one),
        unit: '/s',
        note: `${two.jobs} jobs each; ${once}; ${cpuNote(one)}; ${cpuNote(two)}`,
      },
      {
        id: 'P11',
        figure: `completed jobs/s, 2 api + 2 worker processes ÷ 1 + 1 (submits alternate between the apis)`,
        value: perSec(twoApis),
        baseline: perSec(one),
        unit: '/s',
        note: `${twoApis.jobs} jobs each; ${cpuNote(twoApis)}`,
      },
    ];
  } finally {
    await cluster.stop();
  }
}

/** The processes whose CPU the notes report: the server side, the cluster's processes, and this driver. */
function cpuGroups(
  serviceConfig: { DATABASE_URL?: string; TEMPORAL_ADDRESS?: string },
  workers: WorkerProcess[],
  apis: ApiProcess[],
): CpuGroups {
  // The production shape's server names no port on its command line: its harness says which process it is.
  const temporal = process.env.TEST_TEMPORAL_SERVER_PID
    ? Number(process.env.TEST_TEMPORAL_SERVER_PID)
    : findProcess('--port', portOf(serviceConfig.TEMPORAL_ADDRESS), ['start-dev']);
  const postgres = findProcess('-p', new URL(serviceConfig.DATABASE_URL as string).port);
  return {
    temporal: () => (temporal ? cpuSeconds(temporal, true) : Number.NaN),
    postgres: () => (postgres ? cpuSeconds(postgres, true) : Number.NaN),
    workers: () => workers.reduce((sum, w) => sum + cpuSeconds(w.process.pid), 0),
    apis: () => apis.reduce((sum, a) => sum + cpuSeconds(a.process.pid), 0),
    // The driver (HTTP clients, socket) and the bench stack's own idle api and worker.
    bench: () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1e6;
    },
    machine: machineBusySeconds,
  };
}

const portOf = (address: string | undefined): string => (address ?? '').split(':').pop() ?? '';

/**
 * Every job of the figure completed, was charged once, and ran one workflow: the same count of completed jobs,
 * ledger charges and screening workflow runs on the cluster's task queue (not every run there: the bench job's
 * address is OFAC-listed, so its first HIGH answer also opens the account's case, a workflow of its own). A mismatch
 * fails the run.
 */
async function completedOnce(
  ctx: BenchContext,
  cluster: ServiceCluster,
  userId: string,
  total: number,
): Promise<string> {
  const { rows } = await ctx.stack.pool.query<{ completed: number; charges: number }>(
    `SELECT (SELECT count(*)::int FROM screening_jobs WHERE user_id = $1 AND status = 'completed') AS completed,
            (SELECT count(*)::int FROM credit_transactions WHERE user_id = $1 AND kind = 'consume') AS charges`,
    [userId],
  );
  const query = `TaskQueue = '${cluster.taskQueue}' AND WorkflowType = 'screeningWorkflow'`;
  const runsNow = async () => Number((await ctx.stack.temporal.workflow.count(query)).count);
  // Visibility lags the workflow histories by a moment.
  let runs = await runsNow();
  for (let tries = 0; tries < 25 && runs < total; tries++) {
    await new Promise((r) => setTimeout(r, 200));
    runs = await runsNow();
  }
  const counts = { completed: rows[0]?.completed, charges: rows[0]?.charges, runs };
  if (Object.values(counts).some((n) => n !== total))
    throw new Error(`P11: ${total} jobs, but ${JSON.stringify(counts)}`);
  return `all ${total} completed, charged and run once`;
}
