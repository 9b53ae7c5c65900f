import { loadConfig } from '../../src/app/config';

/**
 * The environment of spawned api and worker processes (the same for every one, as in docker-compose) over a
 * Postgres and a Temporal the caller started and prepared: the caller loaded the reference and candle data once,
 * no schedule reaches for OFAC's server, reads freeze events or sweeps other files' queued jobs, and every
 * operations port is any free one, so a local `npm start` (9463-9465) or a sibling process cannot make one fail to
 * start. `extra` adds or overrides.
 */
export function serviceEnv(o: {
  databaseUrl: string;
  temporalAddress: string;
  taskQueue: string;
  extra?: Record<string, string>;
}): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: o.databaseUrl,
    TEMPORAL_ADDRESS: o.temporalAddress,
    TEMPORAL_TASK_QUEUE: o.taskQueue,
    LOAD_REFERENCE_DATA: 'false',
    LOAD_MARKET_DATA: 'false',
    OFAC_REFRESH_EVERY_HOURS: '0',
    FREEZES_SYNC_EVERY_MINUTES: '0',
    // The sweeper would sweep every test file's queued jobs in the shared database onto this queue.
    QUEUED_JOB_SWEEP_EVERY_SECONDS: '0',
    WORKER_HTTP_PORT: '0',
    INTERNAL_PORT: '0',
    TEMPORAL_SDK_METRICS_PORT: '0',
    ...o.extra,
  };
  loadConfig(env); // a bad value fails here, every problem listed, rather than in each child's log
  return env;
}
