import { readFileSync } from 'node:fs';

/** A USD reference price and where it came from, so every usd figure in a report can be traced. */
export interface UsdPrice {
  usd: number;
  asOf: string;
  source: string;
}

export interface PriceBook {
  usdPrice(symbol: string): UsdPrice | null;
}

interface PriceFile {
  prices: Record<string, UsdPrice>;
}

/** Prices from data/prices/usd-reference-prices.json (provenance in data/prices/SOURCES.md). */
export function loadPriceBook(file: string): PriceBook {
  const data = JSON.parse(readFileSync(file, 'utf8')) as PriceFile;
  return { usdPrice: (symbol) => data.prices[symbol.toUpperCase()] ?? null };
}
