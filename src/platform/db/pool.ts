import { Pool, types } from 'pg';

// bigint columns (credit balances) come back as JS numbers: balances stay far below 2^53.
types.setTypeParser(types.builtins.INT8, (v) => Number(v));
types.setTypeParser(types.builtins.NUMERIC, (v) => Number(v));

/** Bounds for pools that serve requests and activities; loading and migrations run without them. */
export interface PoolTimeouts {
  /** Waiting for a pooled or new connection. */
  connectMs: number;
  /** Postgres cancels a statement running longer (statement_timeout). */
  statementMs: number;
}

// A server that stopped answering (paused, partitioned) cannot cancel anything itself: the client
// gives up this long after the statement timeout would have fired.
const CLIENT_GRACE_MS = 2_000;

/**
 * A pg pool. With `timeouts`, a hung or overloaded database turns into errors within a bounded time
 * (answered 503 by the API, retried by activities) instead of requests that wait forever.
 */
export function createPool(connectionString: string, max: number, timeouts?: PoolTimeouts): Pool {
  const pool = new Pool({
    connectionString,
    max,
    ...(timeouts
      ? {
          connectionTimeoutMillis: timeouts.connectMs,
          statement_timeout: timeouts.statementMs,
          query_timeout: timeouts.statementMs + CLIENT_GRACE_MS,
          keepAlive: true,
        }
      : {}),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/** The serving pool's bounds from config. */
export const servingTimeouts = (config: {
  DATABASE_CONNECT_TIMEOUT_MS: number;
  DATABASE_STATEMENT_TIMEOUT_MS: number;
}): PoolTimeouts => ({
  connectMs: config.DATABASE_CONNECT_TIMEOUT_MS,
  statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
});
