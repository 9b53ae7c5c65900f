import type { Capabilities, MarketSymbol } from './market-types';

/** What the person picked; kept in the URL (#/markets/BTC-USD/1h/500) so a reload or a link keeps it. */
export interface CandleSelection {
  symbol: string;
  interval: string;
  limit: number;
}

export const LIMIT_CHOICES = [100, 250, 500, 1000] as const;
const DEFAULT_LIMIT = 500;
// An hour is readable at any zoom and every stored symbol has it (rolled up from finer files).
const PREFERRED_INTERVAL = '1h';

export function findSymbol(caps: Capabilities, symbol: string): MarketSymbol | undefined {
  for (const connector of caps.connectors) {
    const found = connector.symbols.find((s) => s.symbol === symbol);
    if (found) return found;
  }
  return undefined;
}

/** The symbol's intervals in the API's own order (1m … 1w), not the order they were stored in. */
export function intervalsOf(caps: Capabilities, symbol: MarketSymbol): string[] {
  const listed = new Set(symbol.intervals.map((i) => i.interval));
  return caps.intervals.filter((i) => listed.has(i));
}

/**
 * Reads the selection from the URL, falling back to what capabilities offers: a symbol or interval
 * that is not listed (an old link) is replaced by the first one that is, never requested blindly.
 */
export function resolveSelection(caps: Capabilities, route: string[]): CandleSelection | null {
  const firstSymbol = caps.connectors.flatMap((c) => c.symbols)[0];
  const symbol = (route[0] && findSymbol(caps, route[0])) || firstSymbol;
  if (!symbol) return null;
  const intervals = intervalsOf(caps, symbol);
  const interval =
    route[1] && intervals.includes(route[1])
      ? route[1]
      : intervals.includes(PREFERRED_INTERVAL)
        ? PREFERRED_INTERVAL
        : intervals[0];
  if (!interval) return null;
  const asked = Number(route[2]);
  const limit = Number.isInteger(asked) && asked >= 1 && asked <= caps.limits.candles.max ? asked : DEFAULT_LIMIT;
  return { symbol: symbol.symbol, interval, limit };
}

export const selectionPath = (s: CandleSelection): string[] => ['markets', s.symbol, s.interval, String(s.limit)];
