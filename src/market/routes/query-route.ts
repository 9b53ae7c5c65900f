import { Router } from 'express';
import { z } from 'zod';
import type { MarketStore } from '../store/market-candles';
import {
  CANDLE_LIMIT,
  MARKET_CONNECTOR_IDS,
  MARKET_DATA_TYPE_IDS,
  TICKER_LIMIT,
  type MarketConnectorId,
  type MarketDataType,
} from '../domain/connectors';
import { CANDLE_INTERVALS } from '../domain/intervals';
import { invalidParameter } from '../../platform/http/errors';
import { candleSchema } from './candles-route';
import { readCandleFilters, readLimit, readSymbol, rejectUnknown, symbolNotFound } from './market-params';

const connectorId = z.enum(MARKET_CONNECTOR_IDS as [MarketConnectorId, ...MarketConnectorId[]]);
export const tickerSchema = z.object({
  symbol: z.string(),
  connector: connectorId,
  price: z.number().meta({ description: 'Close of the last stored bucket of the finest stored interval' }),
  timestamp: z.iso.datetime(),
  interval: z.enum(CANDLE_INTERVALS),
  window24h: z
    .object({
      open: z.number(),
      high: z.number(),
      low: z.number(),
      volume: z.number(),
      changePercent: z.number(),
      trades: z.int().min(0).nullable(),
    })
    .nullable(),
});
export const candlesQueryResponse = z.object({
  success: z.literal(true),
  data: z.array(candleSchema),
  meta: z.object({
    connector: connectorId,
    dataType: z.literal('candles'),
    symbol: z.string(),
    interval: z.enum(CANDLE_INTERVALS),
    total: z.int().min(0),
  }),
  timestamp: z.iso.datetime(),
});
export const tickerQueryResponse = z.object({
  success: z.literal(true),
  data: z.array(tickerSchema),
  meta: z.object({ connector: connectorId, dataType: z.literal('ticker'), total: z.int().min(0) }),
  timestamp: z.iso.datetime(),
});
export const marketQueryResponse = z.union([candlesQueryResponse, tickerQueryResponse]);

const BODY_FIELDS = ['connector', 'dataType', 'filters', 'limit'] as const;

function readChoice<T extends string>(value: unknown, parameter: string, choices: readonly T[]): T {
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw invalidParameter(
      parameter,
      `one of ${choices.join(', ')}`,
      value === undefined ? `Missing required parameter "${parameter}"` : undefined,
    );
  }
  return value as T;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * POST /query `{connector, dataType, filters, limit}`: one entry point over every connector and data
 * type capabilities lists. Validated in order (connector, dataType, filters, limit), each failure a 400
 * naming the parameter; a symbol the connector does not offer is a 404.
 */
export function createQueryRouter(deps: { market: MarketStore }): Router {
  const router = Router();
  router.post('/query', async (req, res) => {
    const body: unknown = req.body;
    if (!isObject(body)) throw invalidParameter('body', 'a JSON object {connector, dataType, filters, limit}');
    rejectUnknown(body, BODY_FIELDS);
    const connector = readChoice<MarketConnectorId>(body.connector, 'connector', MARKET_CONNECTOR_IDS);
    const dataType = readChoice<MarketDataType>(body.dataType, 'dataType', MARKET_DATA_TYPE_IDS);
    const filters = body.filters ?? {};
    if (!isObject(filters)) throw invalidParameter('filters', 'a JSON object');
    const catalogue = (await deps.market.catalogue()).filter((s) => s.connector === connector);
    const offered = catalogue.map((s) => s.symbol);
    const requireOffered = (symbol: string) => {
      if (!offered.includes(symbol))
        throw symbolNotFound(symbol, 'filters.symbol', offered, ` on connector "${connector}"`);
    };

    if (dataType === 'candles') {
      rejectUnknown(filters, ['symbol', 'interval', 'startTime', 'endTime'], 'filters.');
      const f = readCandleFilters(filters, 'filters.');
      const limit = readLimit(body.limit, 'limit', CANDLE_LIMIT);
      requireOffered(f.symbol);
      const candles = await deps.market.candles({ ...f, limit });
      res.json({
        success: true,
        data: candles,
        meta: { connector, dataType, symbol: f.symbol, interval: f.interval, total: candles.length },
        timestamp: new Date().toISOString(),
      });
      return;
    }

    rejectUnknown(filters, ['symbol'], 'filters.');
    const symbol = filters.symbol === undefined ? undefined : readSymbol(filters.symbol, 'filters.symbol');
    const limit = readLimit(body.limit, 'limit', TICKER_LIMIT);
    if (symbol) requireOffered(symbol);
    const tickers = [];
    for (const entry of catalogue.filter((c) => !symbol || c.symbol === symbol).slice(0, limit)) {
      const ticker = await deps.market.ticker(entry);
      if (ticker) tickers.push(ticker);
    }
    res.json({
      success: true,
      data: tickers,
      meta: { connector, dataType, total: tickers.length },
      timestamp: new Date().toISOString(),
    });
  });
  return router;
}
