import { createCreditStore, createSubscriptionStore } from '../billing';
import type { FeatureApiRuntime, FeatureRoutes } from '../platform/features/feature-runtime';
import { createPolicyStore } from '../policies';
import { configuredCapabilities, createJobSubmitLimit, type ScreeningConfig } from '../screening';
import type { MonitorsConfig } from './config';
import { createMonitorsRouter } from './monitors-routes';
import { createMonitorStore } from './monitors-store';

/**
 * The account's monitors under /api/v1/monitors. Creating one holds its first job's price and spends from the
 * account's job-submit budget: that counter is in Postgres, shared with the job routes' in every api instance.
 */
export function monitorsRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  const config = runtime.config as MonitorsConfig & ScreeningConfig;
  const { pool } = runtime;
  return {
    v1: createMonitorsRouter({
      monitors: createMonitorStore(pool),
      temporal: runtime.temporal,
      taskQueue: runtime.taskQueue,
      defaultEveryHours: config.MONITOR_EVERY_HOURS_DEFAULT,
      limitSubmits: createJobSubmitLimit({ pool, perMinute: config.JOB_SUBMIT_LIMIT_PER_MINUTE }),
      policies: createPolicyStore(pool),
      hold: {
        pool,
        credits: createCreditStore(pool),
        subscriptions: createSubscriptionStore(pool),
        capabilities: configuredCapabilities(config),
      },
      maxActivePerAccount: config.MAX_ACTIVE_MONITORS_PER_ACCOUNT,
      bitcoinNetwork: config.BITCOIN_NETWORK,
    }),
  };
}
