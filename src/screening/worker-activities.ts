import { createCreditStore } from '../billing';
import { createHistoryStore } from '../history';
import type { PlatformConfig } from '../platform/config/platform-config';
import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { createX402PaymentStore } from '../x402';
import { createScreeningActivities } from './activities';
import type { ScreeningConfig } from './config';
import { configuredEngine } from './engine/configured-engine';
import type { ScreeningEngine } from './engine/engine';
import { createJobStore } from './jobs-store';
import { screeningWorkerMetrics } from './metrics/screening-worker-metrics';
import { queuedJobSweepThresholds } from './queued-job-sweeper';
import { createScreeningWorkflowStarter } from './screening-workflow-starter';
import { createQueuedJobActivities } from './sweeper-activities';

/** What tests replace in screening's worker parts (FeatureRuntime.overrides, by these names). */
export interface ScreeningOverrides {
  /** An engine of the test's own (e.g. one that counts or delays its analyses). */
  engine?: ScreeningEngine;
}

/**
 * The screening activities over the worker's runtime: the analysis and the settles of jobs and x402 reports, and the
 * sweep of jobs left queued (it restarts their workflows through the worker's client).
 */
export function screeningActivities(runtime: FeatureRuntime) {
  const config = runtime.config as ScreeningConfig & Pick<PlatformConfig, 'HTTP_MAX_RESPONSE_BYTES'>;
  const { pool, log } = runtime;
  const metrics = screeningWorkerMetrics(runtime.metrics);
  const jobs = createJobStore(pool);
  const credits = createCreditStore(pool);
  const engine =
    (runtime.overrides as ScreeningOverrides).engine ??
    configuredEngine({ config, pool, ports: runtime.ports, chainCalls: metrics.chainCalls });
  return {
    ...createScreeningActivities({
      pool,
      engine,
      credits,
      jobs,
      history: createHistoryStore(pool),
      x402Payments: createX402PaymentStore(pool),
      metrics,
      log,
    }),
    ...createQueuedJobActivities({
      jobs,
      credits,
      screeningStarter: createScreeningWorkflowStarter({ temporal: runtime.temporal, taskQueue: runtime.taskQueue }),
      queuedJobSweep: queuedJobSweepThresholds(config),
      metrics,
      log,
    }),
  };
}
