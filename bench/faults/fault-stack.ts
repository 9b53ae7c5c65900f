import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Pool } from 'pg';
import { generateApiKey } from '../../src/identity/api-key-format';
import { createPool } from '../../src/platform/db/pool';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/platform/dev-services/embedded-postgres';
import { resolveTemporalCli } from '../../src/platform/dev-services/temporal-cli';
import { setUpTemporalServer, type TemporalProcess } from '../../src/platform/dev-services/temporal-server';
import { resolveTemporalServer } from '../../src/platform/dev-services/temporal-server-build';
import { createLogger, type Logger } from '../../src/platform/logging/logger';
import { prepareDatabase } from '../../src/app/prepare-database';
import { createStores, type Stores } from '../../test/helpers/stores';
import { temporalShape } from '../../test/helpers/temporal-shape';
import { freePort, startAnvil } from '../../test/helpers/anvil';
import { childEnv, TASK_QUEUE } from './child-env';
import { spawnService, stopGracefully, waitUntilReady, type ServiceProcess } from '../../test/helpers/service-process';
import { startSlowNode } from './slow-node';
import { startTemporalProcess } from './temporal-process';

/**
 * The whole service as separate processes the scenarios can kill: an embedded Postgres on a persistent
 * data dir, Temporal (a dev server on a SQLite file, or with TEMPORAL_SHAPE=production the Temporal server on
 * that Postgres, test/helpers/temporal-shape.ts), anvil (chain id 1) behind a slow forwarder, and the
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

/**
 * How the suite starts Temporal, at first and again after each kill: on the same port and the same data, so the
 * workflows it ran go on.
 */
async function temporalStarter(o: {
  cliPath: string;
  databaseUrl: string;
  root: string;
  logFile: string;
  log: Logger;
}): Promise<() => Promise<TemporalProcess>> {
  if (temporalShape() === 'dev') {
    const port = await freePort();
    const dbFile = path.join(o.root, 'temporal.sqlite');
    return () => startTemporalProcess({ cliPath: o.cliPath, port, dbFile, logFile: o.logFile });
  }
  const server = await setUpTemporalServer({
    binaries: resolveTemporalServer(o.log),
    cliPath: o.cliPath,
    databaseUrl: o.databaseUrl,
    logFile: o.logFile,
  });
  return () => server.start();
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
  const [pgPort, apiPort] = [await freePort(), await freePort()];
  const startPg = () => startEmbeddedPostgres({ dataDir: path.join(root, 'postgres'), port: pgPort, persistent: true });

  // What runs now: the scenarios replace these as they kill and restart them.
  const live: { db?: EmbeddedDatabase; temporal?: TemporalProcess; worker?: ServiceProcess; api?: ServiceProcess } = {};
  // Undone in reverse by stop(), or at once if the start fails half-way: the server processes are
  // detached and would otherwise outlive the suite.
  const cleanups: (() => Promise<void>)[] = [];
  const cleanUp = async () => {
    for (let undo = cleanups.pop(); undo; undo = cleanups.pop())
      await undo().catch((err) => console.error(`cleanup: ${String(err)}`));
  };
  try {
    const db = await startPg();
    live.db = db;
    cleanups.push(async () => {
      await live.db?.stop();
      if (!process.env.FAULTS_KEEP) await rm(root, { recursive: true, force: true });
    });
    const startTemporal = await temporalStarter({
      cliPath,
      databaseUrl: db.url,
      root,
      logFile: logFile('temporal'),
      log,
    });
    live.temporal = await startTemporal();
    cleanups.push(async () => live.temporal?.stop());
    const anvil = await startAnvil({ chainId: 1 });
    cleanups.push(() => anvil.stop());
    const slowNode = await startSlowNode(anvil.rpcUrl);
    cleanups.push(() => slowNode.close());
    cleanups.push(async () => {
      for (const proc of [live.api, live.worker]) if (proc) await stopGracefully(proc);
    });
    const setupPool = createPool(db.url, 4);
    await prepareDatabase(
      {
        LOAD_REFERENCE_DATA: true,
        REFERENCE_DATA_DIR: 'data/risk',
        LOAD_MARKET_DATA: true,
        MARKET_DATA_DIR: 'data/market',
        BOOTSTRAP_ADMIN_API_KEY: undefined,
      },
      setupPool,
      log,
    ).finally(() => setupPool.end());

    const env = childEnv({
      apiPort,
      databaseUrl: db.url,
      temporalAddress: live.temporal.address,
      ethereumRpcUrl: slowNode.url,
    });
    const pool = createPool(db.url, 8);
    cleanups.push(() => pool.end());
    const stores = createStores(pool);
    const connection = await Connection.connect({ address: live.temporal.address });
    cleanups.push(() => connection.close());
    const counts = { worker: 0, api: 0 };
    const pollsNow = async (identity: string) => {
      const { pollers } = await connection.workflowService.describeTaskQueue({
        namespace: 'default',
        taskQueue: { name: TASK_QUEUE },
        taskQueueType: 1,
      });
      return (pollers ?? []).some((p) => p.identity === identity);
    };

    const stack: FaultStack = {
      root,
      pool,
      stores,
      temporal: new Client({ connection }),
      env,
      apiUrl: `http://127.0.0.1:${apiPort}`,
      chainCallsInFlight: () => slowNode.inFlight(),
      api: () => {
        if (!live.api) throw new Error('no api process');
        return live.api;
      },
      worker: () => {
        if (!live.worker) throw new Error('no worker process');
        return live.worker;
      },
      async startWorker() {
        counts.worker += 1;
        const proc = spawnService('worker', 'bench/faults/test-pki-worker.ts', env, logFile(`worker-${counts.worker}`));
        live.worker = proc;
        // The SDK's default worker identity is <pid>@<hostname>: a poller with it is this process.
        await waitUntilReady('worker', proc, () => pollsNow(`${proc.pid}@${hostname()}`));
        return proc;
      },
      async startApi() {
        counts.api += 1;
        const proc = spawnService('api', 'src/api.ts', env, logFile(`api-${counts.api}`));
        live.api = proc;
        await waitUntilReady('api', proc, async () => (await fetch(`${stack.apiUrl}/health`)).status === 200);
        return proc;
      },
      async startTemporal() {
        live.temporal = await startTemporal();
      },
      async killTemporal() {
        live.temporal?.kill('SIGKILL');
        await live.temporal?.exited;
      },
      async startPostgres() {
        live.db = await startPg();
      },
      async stopPostgres() {
        await live.db?.stop();
      },
      async createUser({ credits = 0, clerkUserId } = {}) {
        const { rows } = await pool.query<{ id: string }>(
          'INSERT INTO users (role, clerk_user_id) VALUES ($1, $2) RETURNING id',
          ['user', clerkUserId ?? null],
        );
        const id = (rows[0] as { id: string }).id;
        const key = generateApiKey();
        await stores.users.createApiKey(id, 'faults', key);
        if (credits > 0)
          await stores.credits.grant({
            userId: id,
            amount: credits,
            idempotencyKey: `faults-seed:${id}`,
            reason: 'fault suite seed',
            source: 'test',
          });
        return { id, key };
      },
      stop: cleanUp,
    };
    return stack;
  } catch (err) {
    await cleanUp();
    throw err;
  }
}
