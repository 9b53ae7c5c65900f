import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import type { Logger } from '../logging/logger';
import { temporalLoggerOver } from '../logging/temporal-logger';

const LEVELS: Record<string, LogLevel> = {
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARN',
  error: 'ERROR',
  silent: 'ERROR',
};

/**
 * Routes the SDK's own logs (worker state, activity failures) at the service's log level and, given
 * `sdkMetricsPort`, serves the SDK's worker metrics (task slots, poll and schedule-to-start latencies,
 * sticky cache) in Prometheus format on 127.0.0.1:<port>/metrics, which the worker's own /metrics
 * appends. Must run once, before any Temporal connection exists; a later call in the same process is
 * ignored (tests share one process). Returns whether the SDK's metrics are served.
 */
export function installTemporalRuntime(
  level: string,
  options: { sdkMetricsPort?: number; log?: Logger } = {},
): boolean {
  // Through our logger when given: the SDK's lines then share our format, level and redaction.
  const logger = options.log ? temporalLoggerOver(options.log) : new DefaultLogger(LEVELS[level] ?? 'INFO');
  if (options.sdkMetricsPort) {
    try {
      Runtime.install({
        logger,
        telemetryOptions: { metrics: { prometheus: { bindAddress: `127.0.0.1:${options.sdkMetricsPort}` } } },
      });
      return true;
    } catch {
      /* the port is taken or a runtime exists already: install without the exporter below */
    }
  }
  try {
    Runtime.install({ logger });
  } catch {
    /* already installed in this process */
  }
  return false;
}
