import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import type { CandleQuery, MarketStore } from '../store/market-candles';
import { currentUser, InsufficientScopeError, scopesOf } from '../../identity';
import type { TieredLimiter } from '../../platform/rate-limit/limiter';
import { applyRateLimitDecision } from '../../platform/rate-limit/middleware';
import type { RateLimitPrincipal } from '../../platform/rate-limit/tiers';
import { sendJsonText } from './gzip-json';
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

export interface CandlesRouterDeps {
  market: MarketStore;
  limiter: TieredLimiter;
  principalOf(res: Response): RateLimitPrincipal;
}

/** The request's window, validated (400 in the structured shape otherwise); needs the `read` scope (403). */
function candleQuery(req: Request, res: Response): CandleQuery {
  if (!scopesOf(currentUser(res)).includes('read')) throw new InsufficientScopeError('read');
  const query = req.query as Record<string, unknown>;
  rejectUnknown(query, PARAMETERS);
  return { ...readCandleFilters(query), limit: readLimit(query.limit, 'limit', CANDLE_LIMIT) };
}

/**
 * GET /market-data/candles (spec 4.4): `{data, meta:{symbol, interval, total}}`; an empty window of a known symbol
 * is `data: []`. Mounted ahead of the market routes' rate-limit middleware because it spends the account's point
 * itself: in the same statement as the read (one round trip; the read only runs within the limit), with the
 * page's JSON built by Postgres and sent as it comes. A request refused before the read (no `read` scope, a bad
 * parameter) spends its point on its own first, as every market request does, so it still counts and carries
 * the RateLimit headers.
 */
export function createCandlesRouter(deps: CandlesRouterDeps): Router {
  const router = Router();
  const spendAlone = async (res: Response) =>
    applyRateLimitDecision(res, await deps.limiter.consume(deps.principalOf(res)));

  router.get('/market-data/candles', async (req, res) => {
    let query: CandleQuery;
    try {
      query = candleQuery(req, res);
    } catch (err) {
      await spendAlone(res);
      throw err;
    }
    const spend = deps.limiter.spendInStatement?.(deps.principalOf(res));
    if (!spend) await spendAlone(res);
    const page = await deps.market.candlesJson(query, spend);
    if (spend && page.spent) applyRateLimitDecision(res, spend.decide(page.spent));
    // Only an empty answer costs the extra lookup that tells "unknown symbol" from "no candles here".
    if (page.total === 0 && !(await deps.market.findSymbol(query.symbol))) {
      const known = (await deps.market.catalogue()).map((s) => s.symbol);
      throw symbolNotFound(query.symbol, 'symbol', known);
    }
    const meta = { symbol: query.symbol, interval: query.interval, total: page.total };
    sendJsonText(req, res, `{"data":${page.json},"meta":${JSON.stringify(meta)}}`);
  });
  return router;
}
