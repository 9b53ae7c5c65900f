/**
 * An idempotency key for one grant. randomUUID exists only in secure contexts (https, localhost); a
 * dashboard opened over plain http elsewhere still gets 128 random bits.
 */
export function newRequestKey(): string {
  if (typeof crypto.randomUUID === 'function') return `dashboard-${crypto.randomUUID()}`;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dashboard-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
