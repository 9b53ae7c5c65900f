import { createCreditStore, createSubscriptionStore } from '../billing';
import type { FeatureApiRuntime, FeatureRoutes } from '../platform/features/feature-runtime';
import { createPolicyStore } from '../policies';
import {
  configuredCapabilities,
  createJobStore,
  createJobSubmitLimit,
  jobSubmitMetrics,
  type ScreeningConfig,
} from '../screening';
import { createBatchRouter, isBatchSubmit } from './batch-routes';
import { createBatchService } from './batch-service';
import { createBatchStore } from './batch-store';
import { batchWorkflowSettings, createBatchWorkflowStarter } from './batch-workflow-starter';
import type { BatchesConfig } from './config';

/**
 * Batch screening under /api/v1. A batch submit's body (up to MAX_BATCH_ITEMS targets, past the general limit) is
 * read by its own route, after authentication and its scope check: an unauthenticated megabyte is never parsed.
 */
export function batchesRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  const config = runtime.config as ScreeningConfig & BatchesConfig;
  const { pool, temporal, log } = runtime;
  const capabilities = configuredCapabilities(config);
  const batches = createBatchStore(pool);
  return {
    v1: createBatchRouter({
      batchService: createBatchService({
        pool,
        credits: createCreditStore(pool),
        subscriptions: createSubscriptionStore(pool),
        jobs: createJobStore(pool),
        batches,
        capabilities,
        policies: createPolicyStore(pool),
        starter: createBatchWorkflowStarter({
          temporal,
          taskQueue: runtime.taskQueue,
          settings: batchWorkflowSettings(config),
        }),
        log,
        metrics: jobSubmitMetrics(runtime.metrics),
      }),
      batches,
      capabilities,
      config,
      // A batch counts as one submit of the account's budget (the same Postgres counter as a job's).
      limitSubmits: createJobSubmitLimit({ pool, perMinute: config.JOB_SUBMIT_LIMIT_PER_MINUTE }),
    }),
    readsOwnBody: isBatchSubmit,
  };
}
