import { ErrorNotice } from '../components/error-notice';
import { hrefFor } from '../hash-route';
import { MarketPicker } from '../markets/market-picker';
import { MarketView } from '../markets/market-view';
import { RetryButton } from '../markets/retry-button';
import { resolveSelection, selectionPath } from '../markets/selection';
import { useCapabilities } from '../markets/use-capabilities';
import type { PanelProps } from './panel-props';

/** Candles of every stored symbol and interval, as a chart and as figures; the choice lives in the URL. */
export function MarketsPanel({ route }: PanelProps) {
  const { caps, error, retry } = useCapabilities();
  const selection = caps ? resolveSelection(caps, route) : null;

  return (
    <section aria-labelledby="markets-title">
      <h1 id="markets-title">Market candles</h1>
      <ErrorNotice error={error} />
      {error && <RetryButton onRetry={retry} />}
      {!caps && !error && <p role="status">Loading the symbols on offer…</p>}
      {caps && !selection && <p class="hint">No market data is stored on this server yet.</p>}
      {caps && selection && (
        <>
          <p class="hint">
            Market data for this key: {caps.rateLimit.tier} plan, {caps.rateLimit.requestsPerMinute} requests a minute.
            Each change below is one request.
          </p>
          <MarketPicker
            caps={caps}
            selection={selection}
            onChange={(next) => (window.location.hash = hrefFor(...selectionPath(next)))}
          />
          <MarketView selection={selection} />
        </>
      )}
    </section>
  );
}
