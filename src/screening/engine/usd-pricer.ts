import { closeAtOrBefore, type ClosePoint } from './daily-closes';
import type { PriceBook, UsdPrice } from './prices';

/** One stored market's closes for an asset, ascending by close time. */
export interface StoredCloseSeries {
  /** Market symbol, e.g. BNB-USDT. */
  symbol: string;
  connector: string;
  points: ClosePoint[];
}

/** Closes kept in market_candles (shipped files and the live sync), read to value an asset in USD. */
export interface StoredCloses {
  /** Every stored dollar market of `asset` (BASE-USD, -USDT, -USDC), most direct quote first. */
  seriesFor(asset: string): Promise<StoredCloseSeries[]>;
}

/** Values an asset at a moment for one analysis; stored series are read once per asset. */
export interface UsdPricer {
  priceAt(symbol: string, atMs: number): Promise<UsdPrice | null>;
}

/** A stored close at most this long before the valued moment is "near" it and beats any reference. */
export const NEAR_STORED_CLOSE_MS = 86_400_000;
/** Only plain tickers can be market bases (market_symbols: 2-12 of A-Z, 0-9). */
const MARKET_BASE = /^[A-Z0-9]{2,12}$/;

/**
 * Prefers the market's own stored close (market_candles: shipped candles and the live sync) when it is
 * within a day before the moment; otherwise the fresher of that close and the static reference price
 * (a daily close at or before the moment, or a single documented reference point).
 */
export function createUsdPricer(reference: PriceBook, stored?: StoredCloses): UsdPricer {
  const seriesByAsset = new Map<string, Promise<StoredCloseSeries[]>>();
  const seriesOf = (asset: string) => {
    let pending = seriesByAsset.get(asset);
    if (!pending) {
      pending = stored!.seriesFor(asset);
      seriesByAsset.set(asset, pending);
    }
    return pending;
  };

  return {
    async priceAt(symbol, atMs) {
      const asset = symbol.toUpperCase();
      const ref = reference.usdPriceAt(asset, atMs);
      if (!stored || !MARKET_BASE.test(asset)) return ref;
      let best: { close: ClosePoint; series: StoredCloseSeries } | null = null;
      // Series come most direct quote first: a later quote only wins with a strictly newer close.
      for (const series of await seriesOf(asset)) {
        const close = closeAtOrBefore(series.points, atMs);
        if (close && (!best || close.at > best.close.at)) best = { close, series };
      }
      if (!best) return ref;
      const fromMarket: UsdPrice = {
        usd: best.close.usd,
        asOf: new Date(best.close.at).toISOString(),
        source: `${best.series.connector} ${best.series.symbol} close (market_candles)`,
      };
      if (!ref || atMs - best.close.at <= NEAR_STORED_CLOSE_MS) return fromMarket;
      return best.close.at >= Date.parse(ref.asOf) ? fromMarket : ref;
    },
  };
}
