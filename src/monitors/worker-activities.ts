import { createCreditStore, createSubscriptionStore } from '../billing';
import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { createPolicyStore } from '../policies';
import { configuredCapabilities, createJobStore, type ScreeningConfig } from '../screening';
import { createMonitorActivities } from './activities';

/** The monitor activities over the worker's runtime: a re-screen holds, records and runs a job as a submit does. */
export function monitorsActivities(runtime: FeatureRuntime) {
  const config = runtime.config as ScreeningConfig;
  const { pool } = runtime;
  return createMonitorActivities({
    pool,
    log: runtime.log,
    credits: createCreditStore(pool),
    jobs: createJobStore(pool),
    subscriptions: createSubscriptionStore(pool),
    capabilities: configuredCapabilities(config),
    policies: createPolicyStore(pool),
    monitorJob: {
      heartbeatTimeoutMs: config.ANALYSIS_HEARTBEAT_TIMEOUT_MS,
      crawlTimeoutMs: config.CRAWL_TIMEOUT_DEFAULT_MS,
    },
  });
}
