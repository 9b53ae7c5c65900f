import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Logger } from '../logging/logger';
import { goInstall, onPath } from './go-install';

/**
 * The Temporal server the production shape runs: the version the CLI's dev server embeds (TEMPORAL_CLI_VERSION) and
 * docker-compose.yml's temporalio/server and temporalio/admin-tools images carry (test/unit/docker-compose.test.ts
 * compares the tags with this).
 */
export const TEMPORAL_SERVER_VERSION = 'v1.29.1';

export interface TemporalServerBinaries {
  /** `temporal-server` in the images. */
  server: string;
  /** `temporal-sql-tool` in the admin-tools image: creates the databases and applies the schemas. */
  sqlTool: string;
}

/** Outside the checkout, so every clone reuses one build, like the Temporal CLI's. */
export function cachedTemporalServer(): TemporalServerBinaries {
  const dir = path.join(homedir(), '.cache', 'temporal-server', TEMPORAL_SERVER_VERSION);
  return { server: path.join(dir, 'server'), sqlTool: path.join(dir, 'sql') };
}

/**
 * The cached server and SQL tool, built from Temporal's Go module when missing (the packages are mostly the CLI's, so
 * after the CLI's build this takes a minute or two). Throws without Go: nothing else provides them here.
 */
export function resolveTemporalServer(log: Logger): TemporalServerBinaries {
  const binaries = cachedTemporalServer();
  if (existsSync(binaries.server) && existsSync(binaries.sqlTool)) return binaries;
  if (!onPath('go')) throw new Error(`the Temporal server ${TEMPORAL_SERVER_VERSION} is not built and Go is missing`);
  const dir = path.dirname(binaries.server);
  log.info('building the Temporal server with Go (first run only, takes a few minutes)', {
    version: TEMPORAL_SERVER_VERSION,
    into: dir,
  });
  goInstall(
    ['server', 'tools/sql'].map((cmd) => `go.temporal.io/server/cmd/${cmd}@${TEMPORAL_SERVER_VERSION}`),
    dir,
  );
  return binaries;
}
