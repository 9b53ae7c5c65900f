import type { Logger } from '../platform/logging/logger';

/**
 * Runs the cleanups in order on SIGINT/SIGTERM; a second signal or a stuck cleanup ends the process
 * anyway (the timer is unref'd so it never keeps a clean exit waiting).
 */
export function onShutdown(log: Logger, cleanups: (() => Promise<unknown>)[], forceAfterMs = 20_000): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info('shutting down', { signal });
    setTimeout(() => process.exit(1), forceAfterMs).unref();
    for (const cleanup of cleanups) {
      await cleanup().catch((err: unknown) => log.error('cleanup failed', { error: String(err) }));
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
