import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort } from './anvil';
import { httpCall, type HttpCall } from './http-call';
import { serviceEnv } from './service-env';
import { spawnService, stopGracefully, waitUntilReady, type ServiceProcess } from './service-process';

export interface ApiProcess {
  process: ServiceProcess;
  /** The public port, as a client or a load balancer reaches it. */
  url: string;
  http: HttpCall;
}

export interface WorkerProcess {
  process: ServiceProcess;
  /** How Temporal names this worker in its pollers and in the workflow histories' task-started events. */
  identity: string;
}

/**
 * api and worker processes (`npm run api` / `npm run worker` entry points) on one Postgres and one Temporal, as
 * a deployment runs them side by side: the same environment, a task queue of their own, each its own ports.
 */
export interface ServiceCluster {
  taskQueue: string;
  /** Where each process logs (`api-1.log`, `worker-2.log`, …). */
  logDir: string;
  /** Resolves once the worker's /readyz answers and Temporal lists it among the task queue's pollers. */
  startWorker(): Promise<WorkerProcess>;
  /**
   * Resolves once the api's internal /readyz answers (Postgres, Temporal and a polling worker): start workers first.
   */
  startApi(): Promise<ApiProcess>;
  /** SIGTERM to one process (it drains), SIGKILL after 20 s. */
  stopProcess(proc: ServiceProcess): Promise<void>;
  stop(): Promise<void>;
}

const WORKFLOW_QUEUE = 1;
const ACTIVITY_QUEUE = 2;

async function answersOk(url: string): Promise<boolean> {
  return (await fetch(url, { signal: AbortSignal.timeout(5_000) })).ok;
}

/**
 * Where the children log, kept for a failure's post-mortem: beside the jest run's log when there is one, else in
 * test-artifacts/logs, which the next jest run prunes after a day like its own logs.
 */
async function childLogDir(): Promise<string> {
  const runLog = process.env.TEST_RUN_LOG;
  const root = runLog ? path.dirname(runLog) : path.resolve(__dirname, '..', '..', 'test-artifacts', 'logs');
  const dir = path.join(root, `service-cluster-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

export async function startServiceCluster(o: {
  databaseUrl: string;
  temporalAddress: string;
  /** Added to (or overriding) every process's environment. */
  env?: Record<string, string>;
}): Promise<ServiceCluster> {
  const taskQueue = `cluster-${randomUUID()}`;
  const env = serviceEnv({
    databaseUrl: o.databaseUrl,
    temporalAddress: o.temporalAddress,
    taskQueue,
    extra: o.env,
  });
  const logDir = await childLogDir();
  const connection = await Connection.connect({ address: o.temporalAddress });
  const pollerIdentities = async (taskQueueType: number) => {
    const { pollers } = await connection.workflowService.describeTaskQueue({
      namespace: 'default',
      taskQueue: { name: taskQueue },
      taskQueueType,
    });
    return (pollers ?? []).map((p) => p.identity);
  };
  const live = new Set<ServiceProcess>();
  const counts = { api: 0, worker: 0 };
  const spawn = (kind: 'api' | 'worker', extra: Record<string, string>) => {
    counts[kind] += 1;
    const name = `${kind}-${counts[kind]}`;
    const proc = spawnService(name, `src/${kind}.ts`, { ...env, ...extra }, path.join(logDir, `${name}.log`));
    live.add(proc);
    void proc.exited.then(() => live.delete(proc));
    return proc;
  };

  // Ports handed out by this cluster: two processes started at once may be given the same free port by the OS (a port
  // is free again once freePort's probe closed it), and the second then fails with EADDRINUSE.
  const taken = new Set<number>();
  const uniquePort = async (): Promise<number> => {
    for (;;) {
      const port = await freePort();
      if (taken.has(port)) continue;
      taken.add(port);
      return port;
    }
  };

  return {
    taskQueue,
    logDir,
    async startWorker() {
      const port = await uniquePort();
      const proc = spawn('worker', { WORKER_HTTP_PORT: String(port) });
      // The SDK's default identity is <pid>@<hostname>, and the pid is the service's own (spawnService).
      const identity = `${proc.pid}@${hostname()}`;
      await waitUntilReady(proc.name, proc, async () => {
        if (!(await answersOk(`http://127.0.0.1:${port}/readyz`))) return false;
        const [workflows, activities] = await Promise.all([
          pollerIdentities(WORKFLOW_QUEUE),
          pollerIdentities(ACTIVITY_QUEUE),
        ]);
        return workflows.includes(identity) && activities.includes(identity);
      });
      return { process: proc, identity };
    },
    async startApi() {
      const [port, internalPort] = [await uniquePort(), await uniquePort()];
      const proc = spawn('api', { PORT: String(port), INTERNAL_PORT: String(internalPort) });
      await waitUntilReady(proc.name, proc, () => answersOk(`http://127.0.0.1:${internalPort}/readyz`));
      const url = `http://127.0.0.1:${port}`;
      return { process: proc, url, http: httpCall(url) };
    },
    stopProcess: stopGracefully,
    async stop() {
      await Promise.all([...live].map((proc) => stopGracefully(proc)));
      await connection.close();
    },
  };
}
