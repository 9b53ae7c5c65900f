import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { closeAtOrBefore, parseDailyCloses, type ClosePoint } from './daily-closes';

/** A USD price and where it came from, so every usd figure in a report can be traced. */
export interface UsdPrice {
  usd: number;
  /** When this price was the market's: a close time, or the date a reference point was taken. */
  asOf: string;
  source: string;
}

/** The static reference prices shipped in data/prices (provenance in data/prices/SOURCES.md). */
export interface PriceBook {
  /**
   * The price of `symbol` for a moment: for a daily series the close at or before `atMs` (null when
   * the moment predates the series); for a single reference point that point, whatever the moment.
   */
  usdPriceAt(symbol: string, atMs: number): UsdPrice | null;
}

const pricePoint = z
  .object({ usd: z.number().positive(), asOf: z.string().datetime(), source: z.string().min(1) })
  .strict();
const priceFile = z
  .object({
    note: z.string().optional(),
    prices: z.record(z.string(), pricePoint),
    dailyCloses: z
      .record(z.string(), z.object({ file: z.string().min(1), source: z.string().min(1) }).strict())
      .default({}),
  })
  .strict();

interface DailySeries {
  source: string;
  points: ClosePoint[];
}

/** Prices from data/prices/usd-reference-prices.json and the daily-close files it names. */
export function loadPriceBook(file: string): PriceBook {
  const data = priceFile.parse(JSON.parse(readFileSync(file, 'utf8')));
  const daily = new Map<string, DailySeries>(
    Object.entries(data.dailyCloses).map(([symbol, d]) => {
      const csvPath = path.join(path.dirname(file), d.file);
      return [
        symbol.toUpperCase(),
        { source: d.source, points: parseDailyCloses(readFileSync(csvPath, 'utf8'), d.file) },
      ];
    }),
  );
  return {
    usdPriceAt(symbol, atMs) {
      const key = symbol.toUpperCase();
      const series = daily.get(key);
      if (series) {
        const close = closeAtOrBefore(series.points, atMs);
        return close ? { usd: close.usd, asOf: new Date(close.at).toISOString(), source: series.source } : null;
      }
      return data.prices[key] ?? null;
    },
  };
}
