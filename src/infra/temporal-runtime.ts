import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../logger';
import { temporalLoggerOver } from '../logging/temporal-logger';

const LEVELS: Record<string, LogLevel> = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR', silent: 'ERROR' };

/**
 * Routes the SDK's own logs (worker state, activity failures) at the service's log level, through `log`
 * when given (same format and redaction as ours). Must run once, before any Temporal connection exists; a
 * second call in the same process is ignored.
 */
export function installTemporalRuntime(level: string, options: { log?: Logger } = {}): void {
  try {
    Runtime.install({ logger: options.log ? temporalLoggerOver(options.log) : new DefaultLogger(LEVELS[level] ?? 'INFO') });
  } catch {
    /* already installed in this process */
  }
}
