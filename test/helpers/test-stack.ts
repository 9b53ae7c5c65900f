import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import type { Pool } from 'pg';
import type { Activities } from '../../src/app/activities';
import type { ListsOverrides } from '../../src/lists/worker-activities';
import type { MarketOverrides } from '../../src/market/worker-activities';
import type { ScreeningOverrides } from '../../src/screening/worker-activities';
import type { IdentityOverrides } from '../../src/identity/routes';
import { generateApiKey } from '../../src/identity/api-key-format';
import { listRefreshScheduleId } from '../../src/lists/workflow-ids';
import { loadConfig, type Config } from '../../src/app/config';
import { createPool, servingTimeouts } from '../../src/platform/db/pool';
import { installTemporalRuntime } from '../../src/platform/temporal/temporal-runtime';
import {
  connectTemporalClient,
  connectTemporalWorker,
  temporalConnectionOptions,
} from '../../src/platform/temporal/temporal-connection';
import type { Logger } from '../../src/platform/logging/logger';
import { recordConfigSecrets, recordSecret, runLogEnabled, testRunLogger } from './run-log';
import { httpCall, type HttpCall } from './http-call';
import type { BillingOverrides } from '../../src/billing/overrides';
import { startApiServer, type ApiServer } from '../../src/app/api-server';
import { createStores, type Stores } from './stores';
import { buildActivities, createWorker } from '../../src/app/worker-runtime';
import { startWorkerHttpServer, type WorkerHttpServer } from '../../src/app/worker-http-server';
import { createMetricsRegistry } from '../../src/platform/metrics/metrics-registry';

export interface TestStack {
  config: Config;
  pool: Pool;
  stores: Stores;
  temporal: Client;
  api: ApiServer;
  /**
   * The worker side's /healthz, /readyz and /metrics (one registry for every worker of this stack), as
   * WORKER_HTTP_PORT serves them.
   */
  workerHttp: WorkerHttpServer;
  /** Starts (another) worker on this stack's task queue; stopped with the stack. */
  startWorker(activities?: Activities): Promise<{ worker: Worker; stop(): Promise<void> }>;
  createUser(options?: {
    role?: 'user' | 'admin';
    credits?: number;
    clerkUserId?: string;
  }): Promise<{ id: string; key: string }>;
  /** A request to the stack's api: the key as x-api-key, JSON in, JSON (or text) out. */
  http: HttpCall;
  stop(): Promise<void>;
}

/**
 * A real api + worker over the run's shared Postgres and Temporal dev server, on a task queue of its
 * own so test files cannot steal each other's workflows.
 */
export async function startTestStack(
  options: {
    env?: Record<string, string>;
    activities?: (defaults: Activities, pool: Pool) => Activities;
    /** Replaces parts of the real activities' dependencies (e.g. PayFast's validate endpoint). */
    /** Parts of the features' activities replaced, by the names their overrides types declare. */
    activityDeps?: BillingOverrides & ListsOverrides & MarketOverrides & ScreeningOverrides;
    /** Webhook verifiers built by the test (trust anchors, fetchers, clocks), injected like production wiring. */
    verifiers?: Pick<BillingOverrides, 'paypalVerifier' | 'paypalEventLookup' | 'isPayFastSource'> & IdentityOverrides;
    worker?: boolean;
    /** Where the stack's api and workers log (default: the run's log at debug, see run-log.ts). */
    log?: Logger;
    /** The Temporal SDK's exporter, when the test installed the runtime with one: appended to workerHttp's /metrics. */
    sdkMetricsUrl?: string;
  } = {},
): Promise<TestStack> {
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    // The api's internal listener (detailed /readyz, /metrics) on any free loopback port: stacks run side by side.
    INTERNAL_PORT: '0',
    LOG_LEVEL: 'silent',
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS ?? process.env.TEST_TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    DATABASE_POOL_SIZE: '12',
    // Test files share one database but each runs its own anvil: cached address pages must not cross files.
    CHAIN_CACHE_TRANSFERS_TTL_MS: '0',
    // The sweeper schedule would sweep the shared database for every file's queue; its test turns it on.
    QUEUED_JOB_SWEEP_EVERY_SECONDS: '0',
    // Tests load list issues themselves; no schedule reaches for OFAC's server.
    OFAC_REFRESH_EVERY_HOURS: '0',
    // Nor one for the stablecoin freeze events (a file's anvil would be read as Ethereum); the sync's test runs it.
    FREEZES_SYNC_EVERY_MINUTES: '0',
    ...options.env,
  });
  // Under jest every stack logs at debug into the run's log, which the last test greps for the secrets recorded here.
  installTemporalRuntime('warn', runLogEnabled() ? { log: testRunLogger({}, 'info') } : {});
  const log = options.log ?? testRunLogger({ taskQueue: config.TEMPORAL_TASK_QUEUE });
  recordConfigSecrets(config);
  const pool = createPool(config.DATABASE_URL as string, config.DATABASE_POOL_SIZE, servingTimeouts(config));
  const stores = createStores(pool);
  const temporalOptions = temporalConnectionOptions(config, config.TEMPORAL_ADDRESS as string);
  const clientConnection = await connectTemporalClient(temporalOptions);
  const temporal = new Client({ connection: clientConnection });
  const workerConnection = await connectTemporalWorker(temporalOptions);
  const workers: { worker: Worker; stop(): Promise<void> }[] = [];
  const workerRegistry = createMetricsRegistry();

  const startWorker = async (activities?: Activities) => {
    // The worker re-checks provider deliveries with the verifiers the api was given (one construction for both).
    const defaults = buildActivities({
      config,
      pool,
      temporal,
      metrics: workerRegistry,
      log,
      overrides: { ...options.verifiers, ...options.activityDeps },
    });
    const worker = await createWorker({
      connection: workerConnection,
      config,
      log,
      activities: activities ?? (options.activities ? options.activities(defaults, pool) : defaults),
      workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE,
    });
    const running = worker.run();
    let stopped = false;
    const handle = {
      worker,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await running.catch(() => undefined);
      },
    };
    workers.push(handle);
    return handle;
  };
  if (options.worker !== false) await startWorker();
  const workerHttp = await startWorkerHttpServer({
    port: 0,
    host: '127.0.0.1',
    registry: workerRegistry,
    pool,
    workerRunning: () => workers.some((w) => w.worker.getState() === 'RUNNING'),
    sdkMetricsUrl: options.sdkMetricsUrl,
  });
  const api = await startApiServer({ config, pool, temporal, log, overrides: options.verifiers });

  return {
    config,
    pool,
    stores,
    temporal,
    api,
    workerHttp,
    startWorker,
    async createUser({ role = 'user', credits = 0, clerkUserId } = {}) {
      const { rows } = await pool.query<{ id: string }>(
        'INSERT INTO users (role, clerk_user_id) VALUES ($1, $2) RETURNING id',
        [role, clerkUserId ?? null],
      );
      const id = (rows[0] as { id: string }).id;
      const key = generateApiKey();
      recordSecret(key);
      await stores.users.createApiKey(id, 'test', key);
      if (credits > 0)
        await stores.credits.grant({
          userId: id,
          amount: credits,
          idempotencyKey: `test-seed:${id}`,
          reason: 'test seed',
          source: 'test',
        });
      return { id, key };
    },
    http: httpCall(api.url),
    async stop() {
      await removeOfacRefresh(temporal, config.TEMPORAL_TASK_QUEUE);
      await api.close();
      await workerHttp.close();
      for (const w of workers) await w.stop();
      await workerConnection.close();
      await clientConnection.close();
      await pool.end();
    },
  };
}

/** Polls a job until it leaves `queued` (or the deadline passes) and returns the last poll body. */
export async function pollUntilDone(
  stack: TestStack,
  key: string,
  requestId: string,
  timeoutMs = 30_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await stack.http('GET', `/api/v1/kyt/job/${requestId}`, { key });
    if (res.body?.data?.status !== 'queued' || Date.now() > deadline) return res.body;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Submits a job for a fresh user with `credits`, waits for it, and returns the poll body, the full response and
 * the elapsed time.
 */
export async function screenJob(
  stack: TestStack,
  body: Record<string, unknown>,
  credits = 10,
): Promise<{ polled: any; full: any; ms: number }> {
  const user = await stack.createUser({ credits });
  const started = Date.now();
  const submit = await stack.http('POST', '/api/v1/kyt/job', { key: user.key, body });
  if (submit.status !== 202) throw new Error(`submit answered ${submit.status}: ${JSON.stringify(submit.body)}`);
  const polled = await pollUntilDone(stack, user.key, submit.body.data.request_id, 30_000);
  const full = await stack.http('GET', `/api/v1/kyt/job/${submit.body.data.request_id}/fullresponse`, {
    key: user.key,
  });
  return { polled: polled.data, full: full.body.data.response, ms: Date.now() - started };
}

/**
 * Leaves no OFAC refresh behind on `taskQueue` (this stack's, or a worker process's it spawned there): the schedule is
 * cluster-wide and its runs would stay open without a worker, so its SKIP overlap would skip a later file's trigger.
 */
export async function removeOfacRefresh(temporal: Client, taskQueue: string): Promise<void> {
  const schedule = temporal.schedule.getHandle(listRefreshScheduleId('ofac'));
  const described = await schedule.describe().catch(() => undefined);
  if (described?.action.type === 'startWorkflow' && described.action.taskQueue === taskQueue)
    await schedule.delete().catch(() => undefined);
  const open = temporal.workflow.list({
    query: `WorkflowType = 'listRefreshWorkflow' AND ExecutionStatus = 'Running' AND TaskQueue = '${taskQueue}'`,
  });
  for await (const run of open)
    await temporal.workflow
      .getHandle(run.workflowId, run.runId)
      .terminate('test stack stopped')
      .catch(() => undefined);
}
