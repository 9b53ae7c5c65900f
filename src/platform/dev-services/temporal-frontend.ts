import { Connection } from '@temporalio/client';
import type { DetachedProcess } from './detached-process';

const POLL_MS = 250;

/**
 * Resolves once the Temporal frontend at `address`, served by `server`, answers GetSystemInfo. Rejects when the
 * process exits first, or after `timeoutMs`, naming its log.
 */
export async function waitForTemporalFrontend(
  address: string,
  server: DetachedProcess,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!server.isRunning()) throw new Error(`${what} exited at start (log: ${server.logFile})`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(
          `${what} did not answer within ${timeoutMs / 1000} s (log: ${server.logFile}): ${(err as Error).message}`,
        );
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
