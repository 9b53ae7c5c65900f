import type { Client } from '@temporalio/client';
import { bundleWorkflowCode, type NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { Pool } from 'pg';
import type { Registry } from 'prom-client';
import type { Activities } from './activities';
import type { Config } from './config';
import type { Logger } from '../platform/logging/logger';
import { activityLogContext } from '../platform/logging/activity-log-context';
import { workflowBundlerLogger } from '../platform/logging/workflow-bundler-logger';
import { workflowBundleOptions } from './workflow-entry';
import { featureActivities } from './feature-runtime';
import { withPorts } from './feature-ports';
import { createLogger } from '../platform/logging/logger';
import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { evidenceKeyRing } from '../platform/signing/evidence-key-ring';

/** What a worker process builds its features' parts over. */
export interface WorkerRuntimeDeps {
  config: Config;
  pool: Pool;
  /** Starts the workflows activities start (the sweeper's restarts, a batch's items, a case's alert). */
  temporal: Client;
  /** The worker process's registry (served at its /metrics). */
  metrics: Registry;
  log?: Logger;
  /**
   * Tests: parts of the features' activities replaced, by the names their overrides types declare (the worker
   * re-checks provider deliveries with the verifiers the test gave the api).
   */
  overrides?: object;
}

/** The runtime a worker hands its features (src/platform/features/feature-runtime.ts), with every feature's ports. */
export function workerRuntime(deps: WorkerRuntimeDeps): FeatureRuntime {
  return withPorts({
    config: deps.config,
    pool: deps.pool,
    log: deps.log ?? createLogger('silent'),
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    temporal: deps.temporal,
    metrics: deps.metrics,
    evidenceKeys: evidenceKeyRing(deps.config.EVIDENCE_SIGNING_KEYS, deps.pool),
    overrides: { ...deps.overrides } as Readonly<Record<string, unknown>>,
  });
}

/**
 * Every feature's activities over this worker's runtime (FeatureModule.activities), their metrics on the worker's
 * registry. Tests replace parts through `overrides`, or whole activities by name afterwards.
 */
export function buildActivities(deps: WorkerRuntimeDeps): Activities {
  return featureActivities(workerRuntime(deps)) as Activities;
}

/**
 * A worker for the screening task queue. Activity concurrency matches the pool size, so activities
 * queue in Temporal rather than for a connection. shutdownForceTime keeps a stuck activity from
 * hanging shutdown forever (sdk-typescript#2266).
 */
export async function createWorker(options: {
  connection: NativeConnection;
  config: Config;
  activities: Activities;
  namespace?: string;
  workflowBundlePath?: string;
  /**
   * Activity lines (and the domain code's under them) carry the job's workflowId and
   * httpRequestId; see activityLogContext.
   */
  log?: Logger;
}): Promise<Worker> {
  // Bundled here, not by Worker.create({ workflowsPath }), whose bundler logs webpack's whole module list at INFO
  // on every start; same runtime logger, that summary at debug. The bundle carries the workflow interceptors, as
  // the tests' prebuilt one (test/setup/global-setup.ts) does.
  const workflowBundle = options.workflowBundlePath
    ? { codePath: options.workflowBundlePath }
    : await bundleWorkflowCode({
        ...workflowBundleOptions(),
        logger: workflowBundlerLogger(Runtime.instance().logger),
      });
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace ?? 'default',
    taskQueue: options.config.TEMPORAL_TASK_QUEUE,
    workflowBundle,
    activities: options.activities,
    interceptors: { activity: [activityLogContext(options.log)] },
    maxConcurrentActivityTaskExecutions: Math.max(2, options.config.DATABASE_POOL_SIZE),
    // Unset: the SDK's heap-based default (docs/operations.md#scaling-out: caching a whole fleet of monitors was
    // measured and does not pay).
    maxCachedWorkflows: options.config.WORKER_MAX_CACHED_WORKFLOWS,
    shutdownGraceTime: '5s',
    shutdownForceTime: '15s',
  });
}
