import { createCreditStore } from '../billing';
import type { FeatureRuntime } from '../platform/features/feature-runtime';
import {
  createJobStore,
  createScreeningWorkflowStarter,
  finishedJobCounter,
  queuedJobSweepThresholds,
  type ScreeningConfig,
} from '../screening';
import { createBatchActivities } from './activities';
import { batchWorkflowSettings, createBatchWorkflowStarter } from './batch-workflow-starter';
import type { BatchesConfig } from './config';

/**
 * The batch activities over the worker's runtime: a run's input is clamped to this worker's BATCH_* settings, and
 * the sweep starts batch workflows (and reads item workflows) through the worker's client.
 */
export function batchesActivities(runtime: FeatureRuntime) {
  const config = runtime.config as ScreeningConfig & BatchesConfig;
  const { pool, temporal, taskQueue } = runtime;
  const settings = batchWorkflowSettings(config);
  return createBatchActivities({
    pool,
    log: runtime.log,
    jobs: createJobStore(pool),
    credits: createCreditStore(pool),
    screeningStarter: createScreeningWorkflowStarter({ temporal, taskQueue }),
    batchStarter: createBatchWorkflowStarter({ temporal, taskQueue, settings }),
    queuedJobSweep: queuedJobSweepThresholds(config),
    batchWorkflow: settings,
    metrics: finishedJobCounter(runtime.metrics),
  });
}
