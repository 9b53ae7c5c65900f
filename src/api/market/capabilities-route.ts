import { Router } from 'express';
import type { MarketStore } from '../../db/market-candles';
import { MARKET_CONNECTORS, MARKET_CONNECTOR_IDS, MARKET_DATA_TYPES } from '../../domain/market/connectors';
import { CANDLE_INTERVALS } from '../../domain/market/intervals';
import { requestsPerMinute, TIER_REQUESTS_PER_MINUTE } from '../rate-limit/tiers';
import { principalOf } from './principal';

export interface LiveSyncInfo {
  connector: string;
  symbols: string[];
  pollSeconds: number;
}

/**
 * GET /capabilities: generated from the connector table and what is stored, the same sources the
 * query validates against, so the listing and the validation cannot drift apart.
 */
export function createCapabilitiesRouter(deps: { market: MarketStore; liveSync: LiveSyncInfo | null }): Router {
  const router = Router();
  router.get('/capabilities', async (_req, res) => {
    const catalogue = await deps.market.catalogue();
    const principal = principalOf(res);
    const connectors = MARKET_CONNECTOR_IDS.map((id) => ({
      id,
      name: MARKET_CONNECTORS[id].name,
      market: MARKET_CONNECTORS[id].market,
      description: MARKET_CONNECTORS[id].description,
      dataTypes: Object.keys(MARKET_DATA_TYPES),
      liveSync: deps.liveSync?.connector === id ? { symbols: deps.liveSync.symbols, pollSeconds: deps.liveSync.pollSeconds } : null,
      symbols: catalogue
        .filter((s) => s.connector === id)
        .map((s) => ({
          symbol: s.symbol,
          exchangeSymbol: s.exchangeSymbol,
          // ISO strings of one format order like the instants they name.
          from: s.series.reduce<string | null>((earliest, x) => (earliest === null || x.first < earliest ? x.first : earliest), null),
          to: s.series.reduce<string | null>((latest, x) => (latest === null || x.last > latest ? x.last : latest), null),
          intervals: s.series.map((x) => ({ interval: x.interval, from: x.first, to: x.last, candles: x.candles, native: x.native })),
        })),
    }));
    res.json({
      success: true,
      data: {
        connectors,
        dataTypes: Object.entries(MARKET_DATA_TYPES).map(([id, t]) => ({ id, ...t })),
        intervals: CANDLE_INTERVALS,
        limits: { candles: MARKET_DATA_TYPES.candles.limit, ticker: MARKET_DATA_TYPES.ticker.limit },
        rateLimit: {
          tier: principal.tier,
          requestsPerMinute: requestsPerMinute(principal),
          windowSeconds: 60,
          tiers: { ...TIER_REQUESTS_PER_MINUTE, enterprise: 'custom' },
        },
        conventions: {
          timestamp: 'bucket open time, ISO 8601 UTC',
          window: 'startTime inclusive, endTime exclusive, both on the bucket open, Unix ms',
          weeks: '1w buckets open on Monday 00:00 UTC',
          gaps: 'a bucket without trades has no candle; intervals an exchange did not publish are rolled up from finer ones only where every part is known',
          ordering: 'ascending; without startTime the latest `limit` buckets',
        },
      },
      timestamp: new Date().toISOString(),
    });
  });
  return router;
}
