/**
 * npm run lists:update -- --ofac <file|url> [--force]: loads an OFAC SDN Advanced XML issue (plain, .gz or .bz2,
 * a file path or an http(s) URL) as a new version of the OFAC list and prints its diff. The same issue again
 * changes nothing; an issue older than the active one is refused unless --force (which prints what it removes).
 * The load runs here, in this process (refreshOfacList), never through a workflow: this command, run with the
 * database's credentials, is the only way to force a load or to read a source the workers are not configured with
 * (listRefreshWorkflow refuses both: src/lists/refresh-sources.ts).
 */
import { parseArgs } from 'node:util';
import { Client } from '@temporalio/client';
import type { ListVersion } from './lists/list-store';
import { noticeMonitors } from './lists/notify-monitors';
import { embeddedPostgresUrl } from './platform/dev-services/embedded-postgres';
import { createListStore } from './lists/list-store';
import { refreshOfacList } from './lists/refresh-list';
import { loadConfigOrExit } from './app/config';
import { createPool } from './platform/db/pool';
import {
  connectTemporalClient,
  temporalConnectionOptions,
  type TemporalConnectionOptions,
} from './platform/temporal/temporal-connection';
import { createLogger, stderrDestination } from './platform/logging/logger';
import { AppError } from './platform/errors';

const USAGE = 'usage: npm run lists:update -- --ofac <file|url> [--force]';

/** The monitors the new version touched re-screen now: the notice workflow, run by the service's workers. */
async function notifyMonitors(
  temporal: TemporalConnectionOptions,
  config: { TEMPORAL_NAMESPACE: string; TEMPORAL_TASK_QUEUE: string },
  version: ListVersion,
): Promise<void> {
  const connection = await connectTemporalClient(temporal, { connectTimeout: 5_000 });
  try {
    await noticeMonitors(
      new Client({ connection, namespace: config.TEMPORAL_NAMESPACE }),
      config.TEMPORAL_TASK_QUEUE,
      version,
    );
  } finally {
    await connection.close();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { ofac: { type: 'string' }, force: { type: 'boolean', default: false } } });
  if (!values.ofac) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfigOrExit();
  const log = createLogger(config.LOG_LEVEL, { process: 'lists-update' }, stderrDestination(config.LOG_FORMAT));
  // Beside `npm start`: its embedded Postgres and Temporal dev server, unless DATABASE_URL / TEMPORAL_ADDRESS say.
  const pool = createPool(config.DATABASE_URL ?? embeddedPostgresUrl(config.EMBEDDED_PG_PORT), 2);
  const temporalAddress = config.TEMPORAL_ADDRESS ?? `127.0.0.1:${config.TEMPORAL_PORT}`;
  const temporalOptions = temporalConnectionOptions(config, temporalAddress);
  try {
    const lists = createListStore(pool);
    const outcome = await refreshOfacList(
      { pool, lists, log },
      { list: 'ofac', source: values.ofac, force: values.force },
    );
    const v = outcome.version;
    if (outcome.status === 'unchanged') {
      console.log(
        `OFAC issue ${v.issueDate} (sha256 ${v.sha256}) is already loaded as version ${v.id}: nothing changed`,
      );
      return 0;
    }
    const { added, removed, changed } = outcome.diff;
    await notifyMonitors(temporalOptions, config, v).catch((err: unknown) => {
      console.error(
        `version ${v.id} is active, but its monitors were not told (Temporal at ${temporalAddress}: ` +
          `${err instanceof Error ? err.message : err}); they re-screen on their own schedule`,
      );
    });
    console.log(
      `OFAC issue ${v.issueDate} loaded as version ${v.id}${v.forced ? ' (forced)' : ''}: ${v.entryCount} addresses, ` +
        `${added.length} added, ${removed.length} removed, ${changed.length} changed`,
    );
    for (const e of removed) console.log(`  removed ${e.chain} ${e.address} (${e.sdnName ?? e.sdnUid})`);
    return 0;
  } catch (err) {
    if (err instanceof AppError) {
      console.error(`${err.code}: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await pool.end();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
