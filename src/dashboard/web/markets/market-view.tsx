import { ErrorNotice } from '../components/error-notice';
import { CandleChart } from './candle-chart';
import { describeCandles } from './candle-summary';
import { CandleTable } from './candle-table';
import { RetryButton } from './retry-button';
import type { CandleSelection } from './selection';
import { useCandles } from './use-candles';

/** The chart, its one-line summary and its table for one selection, with loading and errors in words. */
export function MarketView({ selection }: { selection: CandleSelection }) {
  const { answer, loading, error, retry } = useCandles(selection);
  const summary = answer ? describeCandles(answer) : '';
  const shown = answer && answer.data.length > 0 ? answer : null;
  return (
    <>
      <p role="status" class="candle-summary" data-testid="candle-summary" aria-busy={loading}>
        {loading ? `Loading ${selection.symbol} ${selection.interval} candles…` : summary}
      </p>
      <ErrorNotice error={error} />
      {error && !loading && <RetryButton onRetry={retry} />}
      {shown && !error && (
        <>
          <CandleChart
            candles={shown.data}
            label={
              `Candlestick chart of ${shown.meta.symbol} at ${shown.meta.interval} with volume: ${summary}. ` +
              `The latest figures are in the table below.`
            }
          />
          <CandleTable candles={shown.data} />
        </>
      )}
    </>
  );
}
