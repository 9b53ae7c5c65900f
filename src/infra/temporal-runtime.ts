import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

const LEVELS: Record<string, LogLevel> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', silent: 'ERROR' };

/**
 * Routes the SDK's own logs (worker state, activity failures) at the service's log level. Must run once,
 * before any Temporal connection exists; a second call in the same process is ignored.
 */
export function installTemporalRuntime(level: string): void {
  try {
    Runtime.install({ logger: new DefaultLogger(LEVELS[level] ?? 'INFO') });
  } catch {
    /* already installed in this process */
  }
}
