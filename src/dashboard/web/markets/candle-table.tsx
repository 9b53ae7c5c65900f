import { type Column, DataTable } from '../components/data-table';
import type { Candle } from './market-types';
import { utcMinute } from './utc-time';

const SHOWN = 10;
const number = (n: number | null) => (n === null ? '—' : n.toLocaleString('en-US', { maximumFractionDigits: 8 }));

const COLUMNS: Column<Candle>[] = [
  { header: 'Open time', cell: (c) => utcMinute(c.timestamp), rowHeader: true },
  { header: 'Open', cell: (c) => number(c.open) },
  { header: 'High', cell: (c) => number(c.high) },
  { header: 'Low', cell: (c) => number(c.low) },
  { header: 'Close', cell: (c) => number(c.close) },
  { header: 'Volume', cell: (c) => number(c.volume) },
  { header: 'Trades', cell: (c) => number(c.trades) },
];

/** The chart's text alternative: the latest candles' figures, newest first. */
export function CandleTable({ candles }: { candles: Candle[] }) {
  const latest = candles.slice(-SHOWN).reverse();
  return (
    <DataTable
      class="candle-table"
      testId="candle-table"
      caption={`Latest ${latest.length} of the ${candles.length} candles shown (times are bucket opens, UTC)`}
      columns={COLUMNS}
      rows={latest}
      rowKey={(c) => c.timestamp}
    />
  );
}
