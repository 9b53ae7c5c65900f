import type { Logger as TemporalLogger, LogLevel as TemporalLevel, LogMetadata } from '@temporalio/common';

const QUIET: Partial<Record<TemporalLevel, TemporalLevel>> = { INFO: 'DEBUG' };

/**
 * The logger for the Temporal workflow bundler (bundleWorkflowCode). It logs webpack's whole summary (every
 * module, "asset workflow-bundle-….js") and "Workflow bundle created" at INFO on each worker start: that is
 * moved to debug here, so at the usual level only a failed build (logged at ERROR, with webpack's errors)
 * and warnings show.
 */
export function workflowBundlerLogger(inner: TemporalLogger): TemporalLogger {
  const write = (level: TemporalLevel, message: string, meta?: LogMetadata) => {
    inner.log(QUIET[level] ?? level, message, meta);
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
