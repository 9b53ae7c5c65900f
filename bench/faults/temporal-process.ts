import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { Connection } from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import { ALL_SEARCH_ATTRIBUTES } from '../../src/platform/temporal/search-attributes';
import { DEV_SERVER_TUNING } from '../../src/platform/dev-services/temporal-dev-server';

function cliType(type: SearchAttributeType): string {
  if (type !== SearchAttributeType.KEYWORD)
    throw new Error(`search attribute type ${type} is not mapped to the CLI's names`);
  return 'Keyword';
}

/** A Temporal dev server the suite can SIGKILL: the CLI spawned directly, its state in a SQLite file. */
export interface TemporalProcess {
  address: string;
  pid: number;
  exited: Promise<void>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * `temporal server start-dev --db-filename <file>` on a fixed port: started again on the same port and
 * file after a kill, it resumes every workflow that was running. (src/platform/dev-services/temporal-dev-server.ts starts
 * it through the SDK, which hides the process.) Resolves once the frontend answers.
 */
export async function startTemporalProcess(options: {
  cliPath: string;
  port: number;
  dbFile: string;
  logFile: string;
}): Promise<TemporalProcess> {
  const address = `127.0.0.1:${options.port}`;
  const fd = openSync(options.logFile, 'a');
  const child = spawn(
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
    { detached: true, stdio: ['ignore', fd, fd] },
  );
  closeSync(fd);
  if (child.pid === undefined) throw new Error('the Temporal dev server did not start');
  const pid = child.pid;
  let running = true;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running = false;
      resolve();
    }),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (!running) throw new Error(`the Temporal dev server exited at start (log: ${options.logFile})`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        await connection.workflowService.getSystemInfo({});
        break;
      } finally {
        await connection.close();
      }
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`the Temporal dev server did not answer within 60 s: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    address,
    pid,
    exited,
    kill(signal) {
      if (!running) return;
      try {
        process.kill(-pid, signal);
      } catch {
        /* already gone */
      }
    },
  };
}
