export interface CertificateCacheOptions<T> {
  /** When the value itself stops being usable (for a certificate: its validTo), in ms since the epoch. */
  expiresAt: (value: T) => number;
  /** The injected clock, in ms since the epoch. */
  now: () => number;
  maxEntries?: number;
  maxAgeMs?: number;
  /** How long a failed load is remembered: until then every get for that key fails the same way without loading. */
  failureTtlMs?: number;
  /** Remembered failures are kept apart from the values, so a flood of made-up keys never evicts a good value. */
  maxFailures?: number;
}

export interface CertificateCache<T> {
  /**
   * The cached value for `key`, or the result of `load`, shared by every concurrent caller for that key. A key whose
   * load failed less than failureTtlMs ago rejects with that failure at once.
   */
  get(key: string, load: () => Promise<T>): Promise<T>;
  readonly size: number;
}

/** PayPal serves the certificate with `cache-control: max-age=86400`. */
const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_FAILURE_TTL_MS = 5 * 60 * 1000;

/** Deletes the oldest keys (Map order is insertion order, re-inserted on use) beyond `max`. */
function trim(map: Map<string, unknown>, max: number): void {
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

/**
 * In-memory LRU keyed by the exact cert URL string. An entry lives until min(maxAge, the value's own expiry), so an
 * expiring certificate is fetched again instead of served stale. Loads are single-flight (a burst of deliveries costs
 * one fetch). A failed load is remembered for failureTtlMs: forged deliveries repeating a made-up cert URL then cost
 * no fetch (and no postback) each, and a real outage is retried once the TTL has passed, while PayPal retries too.
 */
export function createCertificateCache<T>(options: CertificateCacheOptions<T>): CertificateCache<T> {
  const {
    expiresAt,
    now,
    maxEntries = 50,
    maxAgeMs = DAY_MS,
    failureTtlMs = DEFAULT_FAILURE_TTL_MS,
    maxFailures = 1000,
  } = options;
  const entries = new Map<string, { value: T; expiresAtMs: number }>();
  const failures = new Map<string, { error: unknown; untilMs: number }>();
  const inFlight = new Map<string, Promise<T>>();

  const store = (key: string, value: T): void => {
    const loadedAt = now();
    const expiresAtMs = Math.min(loadedAt + maxAgeMs, expiresAt(value));
    if (expiresAtMs <= loadedAt) return;
    entries.set(key, { value, expiresAtMs });
    trim(entries, maxEntries);
  };

  const remember = (key: string, error: unknown): void => {
    if (failureTtlMs <= 0) return;
    failures.set(key, { error, untilMs: now() + failureTtlMs });
    trim(failures, maxFailures);
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
      const failed = failures.get(key);
      if (failed) {
        failures.delete(key);
        if (now() < failed.untilMs) {
          failures.set(key, failed);
          return Promise.reject(failed.error);
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
          remember(key, err);
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
