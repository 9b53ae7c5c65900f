/**
 * Retry-After in ms: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); null when absent or unreadable.
 * Fractional seconds ("0.05") are accepted although the RFC says integer: some JSON-RPC gateways send them,
 * and reading them as a date would turn a 50 ms wait into none.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs = Date.now()): number | null {
  if (header === null || header === undefined || header.trim() === '') return null;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}
