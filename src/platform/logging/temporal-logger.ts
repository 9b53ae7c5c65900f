import type { Logger as TemporalLogger, LogLevel as TemporalLevel, LogMetadata } from '@temporalio/common';
import type { Logger } from './logger';

/**
 * The Temporal SDK's runtime logger (worker state, activity and workflow lifecycle lines, workflow `log`
 * calls through their sink) written through the service's logger, so its lines share one format, one level
 * and the same redaction. TRACE is folded into debug.
 */
export function temporalLoggerOver(log: Logger): TemporalLogger {
  const sdk = log.child({ source: 'temporal-sdk' });
  const write = (level: TemporalLevel, message: string, meta?: LogMetadata) => {
    const fields = meta ? Object.fromEntries(Object.entries(meta)) : undefined;
    if (level === 'ERROR') sdk.error(message, fields);
    else if (level === 'WARN') sdk.warn(message, fields);
    else if (level === 'INFO') sdk.info(message, fields);
    else sdk.debug(message, fields);
  };
  return {
    log: write,
    trace: (message, meta) => write('TRACE', message, meta),
    debug: (message, meta) => write('DEBUG', message, meta),
    info: (message, meta) => write('INFO', message, meta),
    warn: (message, meta) => write('WARN', message, meta),
    error: (message, meta) => write('ERROR', message, meta),
  };
}
