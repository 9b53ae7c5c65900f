export interface CertificateCacheOptions<T> {
  /** When the value itself stops being usable (for a certificate: its validTo), in ms since the epoch. */
  expiresAt: (value: T) => number;
  /** The injected clock, in ms since the epoch. */
  now: () => number;
  maxEntries?: number;
  maxAgeMs?: number;
}

export interface CertificateCache<T> {
  /** The cached value for `key`, or the result of `load`, shared by every concurrent caller for that key. */
  get(key: string, load: () => Promise<T>): Promise<T>;
  readonly size: number;
}

/** PayPal serves the certificate with `cache-control: max-age=86400`. */
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * In-memory LRU keyed by the exact cert URL string. An entry lives until min(maxAge, the value's own expiry), so an
 * expiring certificate is fetched again instead of served stale. Loads are single-flight (a burst of deliveries costs
 * one fetch) and a failed load is never stored, so the next delivery tries again.
 */
export function createCertificateCache<T>(options: CertificateCacheOptions<T>): CertificateCache<T> {
  const { expiresAt, now, maxEntries = 50, maxAgeMs = DAY_MS } = options;
  const entries = new Map<string, { value: T; expiresAtMs: number }>();
  const inFlight = new Map<string, Promise<T>>();

  const store = (key: string, value: T): void => {
    const loadedAt = now();
    const expiresAtMs = Math.min(loadedAt + maxAgeMs, expiresAt(value));
    if (expiresAtMs <= loadedAt) return;
    entries.set(key, { value, expiresAtMs });
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next();
      if (oldest.done) break;
      entries.delete(oldest.value);
    }
  };

  return {
    get(key, load) {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        if (now() < hit.expiresAtMs) {
          entries.set(key, hit); // re-insert: Map order is the recency order
          return Promise.resolve(hit.value);
        }
      }
      const pending = inFlight.get(key);
      if (pending) return pending;
      const loading = load().then(
        (value) => {
          inFlight.delete(key);
          store(key, value);
          return value;
        },
        (err: unknown) => {
          inFlight.delete(key);
          throw err;
        },
      );
      inFlight.set(key, loading);
      return loading;
    },
    get size() {
      return entries.size;
    },
  };
}
