import { SearchAttributeType } from '@temporalio/common';
import { ALL_SEARCH_ATTRIBUTES } from '../../src/platform/temporal/search-attributes';
import { spawnDetached } from '../../src/platform/dev-services/detached-process';
import { DEV_SERVER_TUNING } from '../../src/platform/dev-services/temporal-dev-server';
import { waitForTemporalFrontend } from '../../src/platform/dev-services/temporal-frontend';
import type { TemporalProcess } from '../../src/platform/dev-services/temporal-server';

function cliType(type: SearchAttributeType): string {
  if (type !== SearchAttributeType.KEYWORD)
    throw new Error(`search attribute type ${type} is not mapped to the CLI's names`);
  return 'Keyword';
}

/**
 * A Temporal dev server the suite can SIGKILL: `temporal server start-dev --db-filename <file>` on a fixed port,
 * spawned directly (src/platform/dev-services/temporal-dev-server.ts starts it through the SDK, which hides the
 * process). Started again on the same port and file after a kill, it resumes every workflow that was running.
 * Resolves once the frontend answers.
 */
export async function startTemporalProcess(options: {
  cliPath: string;
  port: number;
  dbFile: string;
  logFile: string;
}): Promise<TemporalProcess> {
  const address = `127.0.0.1:${options.port}`;
  const server = spawnDetached(
    options.cliPath,
    [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(options.port),
      '--headless',
      '--db-filename',
      options.dbFile,
      ...ALL_SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', `${a.name}=${cliType(a.type)}`]),
      // As every dev server of the project runs. WAL with synchronous=NORMAL loses nothing committed when only
      // the process dies.
      ...DEV_SERVER_TUNING,
      '--log-level',
      'error',
    ],
    { env: process.env, logFile: options.logFile },
  );
  await waitForTemporalFrontend(address, server, 'the Temporal dev server');
  return { ...server, address };
}
