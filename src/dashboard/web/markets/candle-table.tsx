import type { Candle } from './market-types';
import { utcMinute } from './utc-time';

const SHOWN = 10;
const number = (n: number | null) => (n === null ? '—' : n.toLocaleString('en-US', { maximumFractionDigits: 8 }));

/** The chart's text alternative: the latest candles' figures, newest first. */
export function CandleTable({ candles }: { candles: Candle[] }) {
  const latest = candles.slice(-SHOWN).reverse();
  return (
    <div class="table-scroll">
      <table class="candle-table" data-testid="candle-table">
        <caption>
          Latest {latest.length} of the {candles.length} candles shown (times are bucket opens, UTC)
        </caption>
        <thead>
          <tr>
            <th scope="col">Open time</th>
            <th scope="col">Open</th>
            <th scope="col">High</th>
            <th scope="col">Low</th>
            <th scope="col">Close</th>
            <th scope="col">Volume</th>
            <th scope="col">Trades</th>
          </tr>
        </thead>
        <tbody>
          {latest.map((c) => (
            <tr key={c.timestamp}>
              <th scope="row">{utcMinute(c.timestamp)}</th>
              <td>{number(c.open)}</td>
              <td>{number(c.high)}</td>
              <td>{number(c.low)}</td>
              <td>{number(c.close)}</td>
              <td>{number(c.volume)}</td>
              <td>{number(c.trades)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
