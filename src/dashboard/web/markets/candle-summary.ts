import type { CandlesAnswer } from './market-types';
import { utcMinute } from './utc-time';

/** "500 candles, 2024-01-01 00:00 – 2024-01-21 19:00 UTC": what the chart shows, in one line. */
export function describeCandles(answer: CandlesAnswer): string {
  const { data, meta } = answer;
  const first = data[0];
  const last = data[data.length - 1];
  if (!first || !last) return `No ${meta.interval} candles are stored for ${meta.symbol}.`;
  const count = `${meta.total.toLocaleString('en-US')} candle${meta.total === 1 ? '' : 's'}`;
  return `${count}, ${utcMinute(first.timestamp)} – ${utcMinute(last.timestamp)} UTC`;
}
