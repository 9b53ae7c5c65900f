import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Pool } from 'pg';
import { generateApiKey } from '../../src/auth/api-key-format';
import { loadConfig } from '../../src/config';
import { createPool } from '../../src/db/pool';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/infra/embedded-postgres';
import { resolveTemporalCli } from '../../src/infra/temporal-cli';
import { createLogger } from '../../src/logger';
import { prepareDatabase } from '../../src/runtime/prepare-database';
import { createStores, type Stores } from '../../src/runtime/stores';
import { freePort, startAnvil, type AnvilNode } from '../../test/helpers/anvil';
import { WEBHOOK_ENV } from '../../test/helpers/webhooks';
import { spawnService, type ServiceProcess } from './service-process';
import { startSlowNode, type SlowNode } from './slow-node';
import { startTemporalProcess, type TemporalProcess } from './temporal-process';

export const ACTIVITY_SECRET = 'fault-suite-activity-secret-0123456789';
const TASK_QUEUE = 'faults';
/** Each chain call of an analysis waits this long: analyses last about a second, so kills land inside them. */
const CHAIN_DELAY_MS = 150;

/**
 * The whole service as separate processes the scenarios can kill: an embedded Postgres on a persistent
 * data dir, a Temporal dev server on a SQLite file, anvil (chain id 1) behind a slow forwarder, and the
 * real `src/worker.ts` and `src/api.ts` entry points as child processes. The suite keeps its own pool
 * and Temporal client to check outcomes in the database and in workflow histories.
 */
export interface FaultStack {
  root: string;
  pool: Pool;
  stores: Stores;
  temporal: Client;
  /** The environment the child processes parse their configuration from. */
  env: Readonly<Record<string, string>>;
  apiUrl: string;
  /** Chain requests the slow node holds right now: > 0 means some analysis is mid-flight. */
  chainCallsInFlight(): number;
  api(): ServiceProcess;
  worker(): ServiceProcess;
  /** Spawns a worker and resolves once Temporal lists it among the task queue's pollers. */
  startWorker(): Promise<ServiceProcess>;
  startApi(): Promise<ServiceProcess>;
  startTemporal(): Promise<void>;
  killTemporal(): Promise<void>;
  startPostgres(): Promise<void>;
  stopPostgres(): Promise<void>;
  createUser(options?: { credits?: number; clerkUserId?: string }): Promise<{ id: string; key: string }>;
  stop(): Promise<void>;
}

export async function startFaultStack(): Promise<FaultStack> {
  const log = createLogger('warn');
  const root = await mkdtemp(path.join(tmpdir(), 'chainscreen-faults-'));
  // Under root, Postgres runs as the `postgres` user, which must be able to reach its data directory.
  await chmod(root, 0o755);
  await mkdir(path.join(root, 'logs'));
  const logFile = (name: string) => path.join(root, 'logs', `${name}.log`);
  const cliPath = resolveTemporalCli(process.env.TEMPORAL_CLI_PATH, log);
  if (!cliPath) throw new Error('the fault suite needs the Temporal CLI (TEMPORAL_CLI_PATH or ~/.cache/temporal-cli)');
  const [pgPort, temporalPort, apiPort] = [await freePort(), await freePort(), await freePort()];

  const startPg = () => startEmbeddedPostgres({ dataDir: path.join(root, 'postgres'), port: pgPort, persistent: true });
  const startTemporal = () => startTemporalProcess({ cliPath, port: temporalPort, dbFile: path.join(root, 'temporal.sqlite'), logFile: logFile('temporal') });
  let db: EmbeddedDatabase = await startPg();
  let temporalServer: TemporalProcess = await startTemporal();
  const anvil: AnvilNode = await startAnvil({ chainId: 1 });
  const slowNode: SlowNode = await startSlowNode(anvil.rpcUrl, CHAIN_DELAY_MS);

  const setupPool = createPool(db.url, 4);
  await prepareDatabase({ LOAD_REFERENCE_DATA: true, REFERENCE_DATA_DIR: 'data/risk', LOAD_MARKET_DATA: true, MARKET_DATA_DIR: 'data/market', BOOTSTRAP_ADMIN_API_KEY: undefined }, setupPool, log);
  await setupPool.end();

  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: String(apiPort),
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: temporalServer.address,
    TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    // Loaded once above; restarted processes only check the schema.
    LOAD_REFERENCE_DATA: 'false',
    LOAD_MARKET_DATA: 'false',
    ETHEREUM_RPC_URL: slowNode.url,
    // A dead worker's analyses are retried elsewhere after this long (the api passes it to each job).
    ANALYSIS_HEARTBEAT_TIMEOUT_MS: '3000',
    CHAIN_CACHE_TRANSFERS_TTL_MS: '0',
    ACTIVITY_WEBHOOK_SECRET: ACTIVITY_SECRET,
    ...WEBHOOK_ENV,
  };
  loadConfig(env); // fails here, with every problem listed, rather than in each child
  const pool = createPool(db.url, 8);
  const stores = createStores(pool);
  const connection = await Connection.connect({ address: temporalServer.address });
  const temporal = new Client({ connection });

  let workerCount = 0;
  let apiCount = 0;
  let worker: ServiceProcess | undefined;
  let api: ServiceProcess | undefined;

  async function pollersOf(identity: string): Promise<boolean> {
    const { pollers } = await connection.workflowService.describeTaskQueue({ namespace: 'default', taskQueue: { name: TASK_QUEUE }, taskQueueType: 1 });
    return (pollers ?? []).some((p) => p.identity === identity);
  }

  async function waitFor(what: string, proc: ServiceProcess, ready: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!proc.isRunning()) throw new Error(`${what} exited during start:\n${proc.logTail()}`);
      if (await ready().catch(() => false)) return;
      if (Date.now() > deadline) throw new Error(`${what} not ready within ${timeoutMs / 1000} s:\n${proc.logTail()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  const stack: FaultStack = {
    root,
    pool,
    stores,
    temporal,
    env,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    chainCallsInFlight: () => slowNode.inFlight(),
    api: () => {
      if (!api) throw new Error('no api process');
      return api;
    },
    worker: () => {
      if (!worker) throw new Error('no worker process');
      return worker;
    },
    async startWorker() {
      workerCount += 1;
      const proc = spawnService('worker', 'src/worker.ts', env, logFile(`worker-${workerCount}`));
      worker = proc;
      // The SDK's default worker identity is <pid>@<hostname>: a poller with it is this process.
      await waitFor('worker', proc, () => pollersOf(`${proc.pid}@${hostname()}`));
      return proc;
    },
    async startApi() {
      apiCount += 1;
      const proc = spawnService('api', 'src/api.ts', env, logFile(`api-${apiCount}`));
      api = proc;
      await waitFor('api', proc, async () => (await fetch(`${stack.apiUrl}/health`)).status === 200);
      return proc;
    },
    async startTemporal() {
      temporalServer = await startTemporal();
    },
    async killTemporal() {
      temporalServer.kill('SIGKILL');
      await temporalServer.exited;
    },
    async startPostgres() {
      db = await startPg();
    },
    async stopPostgres() {
      await db.stop();
    },
    async createUser({ credits = 0, clerkUserId } = {}) {
      const { rows } = await pool.query<{ id: string }>('INSERT INTO users (role, clerk_user_id) VALUES ($1, $2) RETURNING id', ['user', clerkUserId ?? null]);
      const id = (rows[0] as { id: string }).id;
      const key = generateApiKey();
      await stores.users.createApiKey(id, 'faults', key);
      if (credits > 0) await stores.credits.grant({ userId: id, amount: credits, idempotencyKey: `faults-seed:${id}`, reason: 'fault suite seed', source: 'test' });
      return { id, key };
    },
    async stop() {
      for (const proc of [api, worker]) {
        if (!proc?.isRunning()) continue;
        proc.kill('SIGTERM');
        const forced = setTimeout(() => proc.kill('SIGKILL'), 20_000);
        await proc.exited;
        clearTimeout(forced);
      }
      await connection.close();
      await pool.end();
      await slowNode.close();
      await anvil.stop();
      temporalServer.kill('SIGTERM');
      await temporalServer.exited;
      await db.stop();
      if (!process.env.FAULTS_KEEP) await rm(root, { recursive: true, force: true });
    },
  };
  return stack;
}
