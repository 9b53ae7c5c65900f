import { Router } from 'express';
import { z } from 'zod';
import type { MarketStore } from '../store/market-candles';
import { CANDLE_LIMIT } from '../domain/connectors';
import { CANDLE_INTERVALS } from '../domain/intervals';
import { readCandleFilters, readLimit, rejectUnknown, symbolNotFound } from './market-params';

const PARAMETERS = ['symbol', 'interval', 'limit', 'startTime', 'endTime'] as const;

/** One OHLCV bucket as served. */
export const candleSchema = z.object({
  timestamp: z.iso.datetime().meta({ description: 'Bucket open, ISO 8601 UTC' }),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number(),
  trades: z.int().min(0).nullable().meta({ description: 'Number of trades, when the exchange publishes it' }),
});
export const candlesResponse = z.object({
  data: z.array(candleSchema),
  meta: z.object({
    symbol: z.string(),
    interval: z.enum(CANDLE_INTERVALS),
    total: z.int().min(0).meta({ description: 'Candles returned' }),
  }),
});

/**
 * GET /market-data/candles (spec 4.4): `{data, meta:{symbol, interval, total}}`; an empty window of a known symbol
 * is `data: []`.
 */
export function createCandlesRouter(deps: { market: MarketStore }): Router {
  const router = Router();
  router.get('/market-data/candles', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    rejectUnknown(query, PARAMETERS);
    const filters = readCandleFilters(query);
    const candles = await deps.market.candles({ ...filters, limit: readLimit(query.limit, 'limit', CANDLE_LIMIT) });
    // Only an empty answer costs the extra lookup that tells "unknown symbol" from "no candles here".
    if (candles.length === 0 && !(await deps.market.findSymbol(filters.symbol))) {
      const known = (await deps.market.catalogue()).map((s) => s.symbol);
      throw symbolNotFound(filters.symbol, 'symbol', known);
    }
    res.json({ data: candles, meta: { symbol: filters.symbol, interval: filters.interval, total: candles.length } });
  });
  return router;
}
