import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnDetached, type DetachedProcess } from './detached-process';
import { freeLocalPortBelow } from './free-port';
import { TEMPORAL_CONFIG_DIR, TEMPORAL_DEPLOY_FILES, temporalServerArgs } from './temporal-deploy-files';
import { waitForTemporalFrontend } from './temporal-frontend';
import type { TemporalServerBinaries } from './temporal-server-build';

/** The ports deploy/temporal-server.yaml reads: the four services' gRPC and membership ports, the frontend's HTTP. */
const PORT_VARIABLES = [
  'FRONTEND_GRPC_PORT',
  'FRONTEND_HTTP_PORT',
  'FRONTEND_MEMBERSHIP_PORT',
  'HISTORY_GRPC_PORT',
  'HISTORY_MEMBERSHIP_PORT',
  'MATCHING_GRPC_PORT',
  'MATCHING_MEMBERSHIP_PORT',
  'WORKER_GRPC_PORT',
  'WORKER_MEMBERSHIP_PORT',
] as const;

/** Temporal's Postgres schema keeps a service's port (cluster_membership.rpc_port) in a smallint. */
const PORT_LIMIT = 32_768;

/** Free ports, none twice (a port probed free is free again for the next probe). */
async function freePorts(): Promise<Record<string, string>> {
  const taken = new Set<number>();
  while (taken.size < PORT_VARIABLES.length) taken.add(await freeLocalPortBelow(PORT_LIMIT));
  const ports = [...taken];
  return Object.fromEntries(PORT_VARIABLES.map((name, i) => [name, String(ports[i])]));
}

/** The variables deploy/temporal-server.yaml and deploy/temporal-schema.sh read the database from. */
function databaseEnv(databaseUrl: string): Record<string, string> {
  const url = new URL(databaseUrl);
  return {
    POSTGRES_SEEDS: url.hostname,
    DB_PORT: url.port || '5432',
    POSTGRES_USER: decodeURIComponent(url.username),
    POSTGRES_PWD: decodeURIComponent(url.password),
  };
}

const LOG_TAIL_CHARS = 2_000;

/**
 * Only what the deploy scripts and the server read, and what the tools need to run (the CLI wants a HOME for its
 * config): variables of ours, such as LOG_LEVEL, must not reach the server's config.
 */
const baseEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/' });

/** Runs one of the deploy scripts with `env`, its output appended to `logFile`. */
function runScript(script: string, env: Record<string, string>, logFile: string): Promise<void> {
  const fd = openSync(logFile, 'a');
  const child = spawn('sh', [script], { env: { ...baseEnv(), ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) return resolve();
      const tail = readFileSync(logFile, 'utf8').slice(-LOG_TAIL_CHARS);
      reject(new Error(`${path.basename(script)} failed (${code}; log: ${logFile}):\n${tail}`));
    });
  });
}

export interface TemporalProcess extends DetachedProcess {
  address: string;
}

export interface TemporalServer {
  /** The frontend, host:port. */
  address: string;
  /** Runs the server, again after a kill on the same ports and data; resolves once the frontend answers. */
  start(): Promise<TemporalProcess>;
}

/**
 * The production shape's Temporal on one host: the server built from its Go module (not the dev server), its
 * persistence and visibility in the databases `temporal` and `temporal_visibility` of the Postgres at `databaseUrl`,
 * set up by deploy/temporal-schema.sh with Temporal's SQL tool; at its first start deploy/temporal-namespace.sh
 * registers the namespace `default` and the search attributes with the CLI. Every port is a free one.
 */
export async function setUpTemporalServer(options: {
  binaries: TemporalServerBinaries;
  cliPath: string;
  databaseUrl: string;
  logFile: string;
}): Promise<TemporalServer> {
  const { binaries, cliPath, logFile } = options;
  const database = databaseEnv(options.databaseUrl);
  await runScript(TEMPORAL_DEPLOY_FILES.schemaScript, { ...database, SQL_TOOL: binaries.sqlTool }, logFile);
  const ports = await freePorts();
  const address = `127.0.0.1:${ports.FRONTEND_GRPC_PORT}`;
  const env = {
    ...baseEnv(),
    ...database,
    ...ports,
    DYNAMIC_CONFIG_FILE_PATH: TEMPORAL_DEPLOY_FILES.dynamicConfig,
  };
  let registered = false;
  return {
    address,
    async start() {
      const server = spawnDetached(binaries.server, temporalServerArgs(TEMPORAL_CONFIG_DIR), { env, logFile });
      try {
        await waitForTemporalFrontend(address, server, 'the Temporal server');
        if (!registered)
          await runScript(
            TEMPORAL_DEPLOY_FILES.namespaceScript,
            { TEMPORAL_ADDRESS: address, TEMPORAL_CLI: cliPath },
            logFile,
          );
        registered = true;
      } catch (err) {
        await server.stop();
        throw err;
      }
      return { ...server, address };
    },
  };
}
