import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { createPool } from '../../src/platform/db/pool';
import { startEmbeddedPostgres } from '../../src/platform/dev-services/embedded-postgres';
import { resolveTemporalCli } from '../../src/platform/dev-services/temporal-cli';
import { resolveBtcd } from '../../src/platform/dev-services/btcd';
import { startTemporalDevServer } from '../../src/platform/dev-services/temporal-dev-server';
import { setUpTemporalServer } from '../../src/platform/dev-services/temporal-server';
import { resolveTemporalServer } from '../../src/platform/dev-services/temporal-server-build';
import { createLogger, type Logger } from '../../src/platform/logging/logger';
import { prepareDatabase } from '../../src/app/prepare-database';
import { workflowBundleOptions } from '../../src/app/workflow-entry';
import { temporalShape } from '../helpers/temporal-shape';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Where each jest run's whole log and the secrets it used go (test/helpers/run-log.ts); the last test reads both. */
const RUN_LOGS = path.resolve(__dirname, '..', '..', 'test-artifacts', 'logs');
const KEEP_RUN_LOGS_MS = 24 * 3_600_000;

/** One directory per run: two runs in the same tree at once must not truncate or mix each other's log. */
async function startRunLog(): Promise<void> {
  await mkdir(RUN_LOGS, { recursive: true });
  for (const entry of await readdir(RUN_LOGS)) {
    const old = path.join(RUN_LOGS, entry);
    // Another run pruning at the same moment may have taken it already.
    const modified = await stat(old).then(
      (st) => st.mtimeMs,
      () => Date.now(),
    );
    if (Date.now() - modified > KEEP_RUN_LOGS_MS) await rm(old, { recursive: true, force: true });
  }
  const dir = path.join(RUN_LOGS, `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`);
  await mkdir(dir);
  process.env.TEST_RUN_LOG = path.join(dir, 'test-run.log');
  process.env.TEST_RUN_SECRETS = path.join(dir, 'secrets.txt');
}

interface RunTemporal {
  address: string;
  stop(): Promise<void>;
}

/**
 * The production shape's Temporal server on the run's Postgres. Its pid goes to TEST_TEMPORAL_SERVER_PID for the
 * bench's CPU notes (P11): unlike the dev server's, its command line names no port to find it by.
 */
async function startProductionTemporal(
  databaseUrl: string,
  cliPath: string | null,
  root: string,
  log: Logger,
): Promise<RunTemporal> {
  if (!cliPath) throw new Error('the production shape registers its namespace with the Temporal CLI: none found');
  const server = await setUpTemporalServer({
    binaries: resolveTemporalServer(log),
    cliPath,
    databaseUrl,
    logFile: path.join(root, 'temporal-server.log'),
  });
  const proc = await server.start();
  process.env.TEST_TEMPORAL_SERVER_PID = String(proc.pid);
  return {
    address: proc.address,
    async stop() {
      delete process.env.TEST_TEMPORAL_SERVER_PID;
      await proc.stop();
    },
  };
}

/**
 * Starts the real infrastructure once per jest run: an embedded PostgreSQL 18 (migrated, reference
 * data loaded) and a Temporal dev server (or with TEMPORAL_SHAPE=production the Temporal server on that Postgres),
 * and bundles the workflows once. Test files read the addresses from process.env (runInBand: same process).
 */
export default async function globalSetup(jestConfig?: unknown): Promise<void> {
  // Only a jest run (which passes its config) records a run log; benchmarks call this without one and stay silent.
  if (jestConfig) await startRunLog();
  const log = createLogger('warn');
  const root = await mkdtemp(path.join(tmpdir(), 'chainscreen-test-'));
  // Under root, Postgres runs as the `postgres` user, which must be able to reach its data directory.
  await chmod(root, 0o755);
  const [pgPort, temporalPort] = [await freePort(), await freePort()];

  // btcd (the bitcoin node the entity and bitcoin RPC tests run): built with Go on a fresh machine, here rather than in
  // a test's beforeAll, whose timeout a first build would overrun. .ci/run builds it first.
  const btcd = resolveBtcd(process.env.BTCD_PATH, log);
  if (btcd) process.env.BTCD_PATH = btcd;
  const cliPath = resolveTemporalCli(process.env.TEMPORAL_CLI_PATH, log);
  const startingDb = startEmbeddedPostgres({ dataDir: path.join(root, 'postgres'), port: pgPort, persistent: false });
  const [db, temporal] =
    temporalShape() === 'dev'
      ? await Promise.all([startingDb, startTemporalDevServer({ cliPath, port: temporalPort })])
      : await startingDb.then(async (db) => {
          const started = await startProductionTemporal(db.url, cliPath, root, log).catch(async (err) => {
            await db.stop(); // else jest waits on it and never reports the error
            throw err;
          });
          return [db, started] as const;
        });
  const pool = createPool(db.url, 4);
  await prepareDatabase(
    {
      LOAD_REFERENCE_DATA: true,
      REFERENCE_DATA_DIR: 'data/risk',
      LOAD_MARKET_DATA: true,
      MARKET_DATA_DIR: 'data/market',
      BOOTSTRAP_ADMIN_API_KEY: undefined,
    },
    pool,
    log,
  );
  await pool.end();

  const { code } = await bundleWorkflowCode({
    ...workflowBundleOptions(),
    logger: {
      log: () => undefined,
      trace: () => undefined,
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    },
  });
  await mkdir(path.join(root, 'bundle'), { recursive: true });
  const bundlePath = path.join(root, 'bundle', 'workflows.js');
  await writeFile(bundlePath, code);

  process.env.TEST_DATABASE_URL = db.url;
  process.env.TEST_TEMPORAL_ADDRESS = temporal.address;
  process.env.TEST_WORKFLOW_BUNDLE = bundlePath;
  (globalThis as Record<string, unknown>).__chainscreenStop = async () => {
    await temporal.stop();
    await db.stop();
  };
}
