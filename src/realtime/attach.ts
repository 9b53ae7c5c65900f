import type { Server as HttpServer } from 'node:http';
import type { FeatureApiRuntime } from '../platform/features/feature-runtime';
import { createOutboxListener } from './outbox-listener';
import { attachRealtime } from './socket-server';

/**
 * The sockets on the api's HTTP server, fed by the outbox relay of this instance. Every feature's observer hears
 * each notice and each event first (a credential changed elsewhere is dropped before the sockets re-check theirs),
 * then the owner's sockets get the event.
 */
export function attachSockets(runtime: FeatureApiRuntime, httpServer: HttpServer) {
  const observers = runtime.accountEvents;
  return attachRealtime({
    httpServer,
    resolveIdentity: (credentials) => runtime.ports.socketIdentity(credentials),
    createListener: (onEvent) =>
      createOutboxListener({
        // The pool's own database: config.DATABASE_URL is unset when `npm start` runs an embedded Postgres.
        connectionString: runtime.pool.options.connectionString as string,
        log: runtime.log,
        onNotified: (notice) => observers.notified?.(notice),
        onListening: (listening) => observers.listening?.(listening),
        onEvent: (event) => {
          observers.event?.(event);
          onEvent(event);
        },
      }),
    log: runtime.log,
  });
}
