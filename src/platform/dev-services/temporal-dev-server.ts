import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ALL_SEARCH_ATTRIBUTES } from '../temporal/search-attributes';

export interface DevServer {
  address: string;
  uiUrl: string | null;
  stop(): Promise<void>;
}

/**
 * What every dev server of the project runs with (the fault suite's too): WAL keeps SQLite from serialising every
 * write on fsync (the SDK's own stress CI does the same), and eager activity execution lets the server hand an
 * activity to the worker in its answer to the workflow task that scheduled it, saving the activity task's poll round
 * trip (a cluster enables it the same way, in its dynamic config: docs/operations.md).
 */
export const DEV_SERVER_TUNING = [
  '--sqlite-pragma',
  'journal_mode=WAL',
  '--sqlite-pragma',
  'synchronous=NORMAL',
  '--dynamic-config-value',
  'system.enableActivityEagerExecution=true',
] as const;

/**
 * Starts `temporal server start-dev` through the SDK (it waits for readiness and kills the process
 * on teardown) with the operators' search attributes registered.
 */
export async function startTemporalDevServer(options: {
  cliPath: string | null;
  port?: number;
  uiPort?: number | null;
  dbFile?: string;
  namespace?: string;
}): Promise<DevServer> {
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: options.cliPath ? { type: 'existing-path', path: options.cliPath } : { type: 'cached-download' },
      ip: '127.0.0.1',
      port: options.port,
      namespace: options.namespace ?? 'default',
      ...(options.uiPort ? { ui: true, uiPort: options.uiPort } : { ui: false }),
      ...(options.dbFile ? { dbFilename: options.dbFile } : {}),
      searchAttributes: ALL_SEARCH_ATTRIBUTES,
      // `--output none`: no "CLI … / Server: / UI: / Metrics:" block on our stdout (the SDK hands the child our
      // terminal); the callers print the address and the UI themselves. Its log lines stay, at error only.
      extraArgs: [...DEV_SERVER_TUNING, '--output', 'none'],
      log: { format: 'pretty', level: 'error' },
    },
  });
  const address = env.address;
  return {
    address,
    uiUrl: options.uiPort ? `http://127.0.0.1:${options.uiPort}` : null,
    stop: () => env.teardown(),
  };
}
