import type { Capabilities } from './market-types';
import { findSymbol, intervalsOf, LIMIT_CHOICES, type CandleSelection } from './selection';

/** Symbol (grouped by connector), interval and count, offering only what capabilities lists. */
export function MarketPicker({
  caps,
  selection,
  onChange,
}: {
  caps: Capabilities;
  selection: CandleSelection;
  onChange: (next: CandleSelection) => void;
}) {
  const symbol = findSymbol(caps, selection.symbol);
  const intervals = symbol ? intervalsOf(caps, symbol) : [];
  const stored = symbol?.intervals.find((i) => i.interval === selection.interval);
  const limits = LIMIT_CHOICES.filter((n) => n <= caps.limits.candles.max);

  const pickSymbol = (value: string) => {
    const next = findSymbol(caps, value);
    const nextIntervals = next ? intervalsOf(caps, next) : [];
    // Keep the interval when the new symbol has it too; otherwise its first one.
    const interval = nextIntervals.includes(selection.interval)
      ? selection.interval
      : (nextIntervals[0] ?? selection.interval);
    onChange({ ...selection, symbol: value, interval });
  };
  const value = (e: Event) => (e.target as HTMLSelectElement).value;

  return (
    <div class="form-grid market-picker">
      <div>
        <label for="market-symbol">Symbol</label>
        <select id="market-symbol" value={selection.symbol} onChange={(e) => pickSymbol(value(e))}>
          {caps.connectors
            .filter((c) => c.symbols.length > 0)
            .map((c) => (
              <optgroup key={c.id} label={c.name}>
                {c.symbols.map((s) => (
                  <option key={s.symbol} value={s.symbol}>
                    {s.symbol} ({s.exchangeSymbol})
                  </option>
                ))}
              </optgroup>
            ))}
        </select>
      </div>
      <div>
        <label for="market-interval">Interval</label>
        <select
          id="market-interval"
          value={selection.interval}
          onChange={(e) => onChange({ ...selection, interval: value(e) })}
          aria-describedby="market-interval-hint"
        >
          {intervals.map((i) => (
            <option key={i} value={i}>
              {i}
            </option>
          ))}
        </select>
        <p id="market-interval-hint" class="hint">
          {stored
            ? `${stored.candles.toLocaleString('en-US')} stored, ` +
              `${stored.native ? 'as the exchange published them' : 'rolled up from finer candles'}`
            : ''}
        </p>
      </div>
      <div>
        <label for="market-limit">How many candles</label>
        <select
          id="market-limit"
          value={String(selection.limit)}
          onChange={(e) => onChange({ ...selection, limit: Number(value(e)) })}
        >
          {limits.map((n) => (
            <option key={n} value={String(n)}>
              latest {n}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
