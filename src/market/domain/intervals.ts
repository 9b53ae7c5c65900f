/** The intervals the API serves, finest first. Each one divides the next, so each is rolled up from its predecessor. */
export const CANDLE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

const MINUTE = 60_000;
export const INTERVAL_MS: Readonly<Record<CandleInterval, number>> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '4h': 240 * MINUTE,
  '1d': 1440 * MINUTE,
  '1w': 10_080 * MINUTE,
};

/**
 * Monday 2000-01-03 00:00 UTC. Buckets are counted from here, not from the Unix epoch: 1970-01-01
 * was a Thursday, so epoch-based weeks would open on Thursdays. It is also a midnight, so every
 * shorter interval still lines up with 00:00 UTC.
 */
export const BUCKET_ORIGIN_MS = Date.UTC(2000, 0, 3);
export const BUCKET_ORIGIN_SQL = "TIMESTAMPTZ '2000-01-03 00:00:00+00'";

export const isCandleInterval = (v: unknown): v is CandleInterval =>
  typeof v === 'string' && (CANDLE_INTERVALS as readonly string[]).includes(v);

/** Open time of the bucket that contains `ms`. */
export function bucketStart(ms: number, interval: CandleInterval): number {
  const size = INTERVAL_MS[interval];
  return BUCKET_ORIGIN_MS + Math.floor((ms - BUCKET_ORIGIN_MS) / size) * size;
}

/** Open time of the first bucket that starts at or after `ms`. */
export function bucketCeil(ms: number, interval: CandleInterval): number {
  const start = bucketStart(ms, interval);
  return start === ms ? ms : start + INTERVAL_MS[interval];
}

/** The interval each one is rolled up from (undefined for 1m). */
export function finerInterval(interval: CandleInterval): CandleInterval | undefined {
  const i = CANDLE_INTERVALS.indexOf(interval);
  return i > 0 ? CANDLE_INTERVALS[i - 1] : undefined;
}

/** Postgres interval literal for date_bin. */
export const INTERVAL_SQL: Readonly<Record<CandleInterval, string>> = {
  '1m': '1 minute',
  '5m': '5 minutes',
  '15m': '15 minutes',
  '30m': '30 minutes',
  '1h': '1 hour',
  '4h': '4 hours',
  '1d': '1 day',
  '1w': '7 days',
};
