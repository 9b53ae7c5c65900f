import { loadConfig } from '../../src/platform/config';
import { WEBHOOK_ENV } from '../../test/helpers/webhooks';

export const TASK_QUEUE = 'faults';
export const ACTIVITY_SECRET = 'fault-suite-activity-secret-0123456789';

/**
 * The environment of the api and worker processes (the same for both, as in docker-compose): the
 * webhook routes configured with the test fixtures' secrets, the ethereum node behind the slow forwarder.
 */
export function childEnv(o: {
  apiPort: number;
  databaseUrl: string;
  temporalAddress: string;
  ethereumRpcUrl: string;
}): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    PORT: String(o.apiPort),
    DATABASE_URL: o.databaseUrl,
    TEMPORAL_ADDRESS: o.temporalAddress,
    TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    // The suite loads them once; restarted processes only check the schema.
    LOAD_REFERENCE_DATA: 'false',
    LOAD_MARKET_DATA: 'false',
    ETHEREUM_RPC_URL: o.ethereumRpcUrl,
    // A dead worker's analyses are retried elsewhere after this long (the api passes it to each job).
    ANALYSIS_HEARTBEAT_TIMEOUT_MS: '3000',
    CHAIN_CACHE_TRANSFERS_TTL_MS: '0',
    // No schedule reaches for OFAC's server or reads freeze events during the faults.
    OFAC_REFRESH_EVERY_HOURS: '0',
    FREEZES_SYNC_EVERY_MINUTES: '0',
    // Any free ports: a local `npm start` (9464/9465) must not make the suite's worker fail to start.
    WORKER_HTTP_PORT: '0',
    INTERNAL_PORT: '0',
    TEMPORAL_SDK_METRICS_PORT: '0',
    ACTIVITY_WEBHOOK_SECRET: ACTIVITY_SECRET,
    ...WEBHOOK_ENV,
  };
  loadConfig(env); // a bad value fails here, every problem listed, rather than in each child's log
  return env;
}
