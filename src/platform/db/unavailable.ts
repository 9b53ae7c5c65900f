/**
 * Whether an error means "the database cannot answer now" (so the right answer is 503 and a retry),
 * as opposed to a bug. Covers the pool's own timeouts, Postgres cancelling a statement at
 * statement_timeout, refused or dropped connections, and a server shutting down or out of slots.
 */
const MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Query read timeout/i,
  /Connection terminated/i,
  /connection timeout/i,
  /Client has encountered a connection error/i,
];
const SYSTEM_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
// SQLSTATE: 57014 query_canceled (statement_timeout), 57P01-57P03 shutdown / cannot connect now,
// 53300 too_many_connections, class 08 connection exceptions.
const SQLSTATES = /^(57014|57P0[123]|53300|08...)$/;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (SYSTEM_CODES.has(code) || SQLSTATES.test(code))) return true;
  return typeof message === 'string' && MESSAGES.some((m) => m.test(message));
}
