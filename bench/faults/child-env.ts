import { serviceEnv } from '../../test/helpers/service-env';
import { WEBHOOK_ENV } from '../../test/helpers/webhooks';

export const TASK_QUEUE = 'faults';
export const HISTORY_WEBHOOK_SECRET = 'fault-suite-activity-secret-0123456789';

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
  return serviceEnv({
    databaseUrl: o.databaseUrl,
    temporalAddress: o.temporalAddress,
    taskQueue: TASK_QUEUE,
    extra: {
      PORT: String(o.apiPort),
      ETHEREUM_RPC_URL: o.ethereumRpcUrl,
      // A dead worker's analyses are retried elsewhere after this long (the api passes it to each job).
      ANALYSIS_HEARTBEAT_TIMEOUT_MS: '3000',
      CHAIN_CACHE_TRANSFERS_TTL_MS: '0',
      ACTIVITY_WEBHOOK_SECRET: HISTORY_WEBHOOK_SECRET,
      ...WEBHOOK_ENV,
    },
  });
}
