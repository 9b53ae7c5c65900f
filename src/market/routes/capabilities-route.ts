import { Router } from 'express';
import { z } from 'zod';
import type { MarketStore } from '../store/market-candles';
import {
  MARKET_CONNECTORS,
  MARKET_CONNECTOR_IDS,
  MARKET_DATA_TYPES,
  type MarketConnectorId,
} from '../domain/connectors';
import { CANDLE_INTERVALS } from '../domain/intervals';
import { requestsPerMinute, TIER_REQUESTS_PER_MINUTE } from '../../platform/rate-limit/tiers';
import { principalOf } from './principal';
import { type ChainCapability, chainCapabilitySchema } from '../../screening';

export interface LiveSyncInfo {
  connector: string;
  symbols: string[];
  pollSeconds: number;
}

const filterSpec = z.object({
  type: z.enum(['string', 'integer']),
  required: z.boolean(),
  description: z.string().optional(),
  values: z.array(z.enum(CANDLE_INTERVALS)).optional(),
});
export const capabilitiesResponse = z.object({
  success: z.literal(true),
  data: z.object({
    connectors: z.array(
      z.object({
        id: z.enum(MARKET_CONNECTOR_IDS as [MarketConnectorId, ...MarketConnectorId[]]),
        name: z.string(),
        market: z.enum(['spot', 'usdm-futures']),
        description: z.string(),
        dataTypes: z.array(z.enum(['candles', 'ticker'])),
        liveSync: z.object({ symbols: z.array(z.string()), pollSeconds: z.number() }).nullable(),
        symbols: z.array(
          z.object({
            symbol: z.string(),
            exchangeSymbol: z.string(),
            from: z.iso.datetime().nullable(),
            to: z.iso.datetime().nullable(),
            intervals: z.array(
              z.object({
                interval: z.enum(CANDLE_INTERVALS),
                from: z.iso.datetime(),
                to: z.iso.datetime(),
                candles: z.int().min(0),
                native: z.boolean(),
              }),
            ),
          }),
        ),
      }),
    ),
    dataTypes: z.array(
      z.object({
        id: z.enum(['candles', 'ticker']),
        description: z.string(),
        filters: z.record(z.string(), filterSpec),
        limit: z.object({ default: z.int(), max: z.int() }),
        fields: z.array(z.string()),
      }),
    ),
    intervals: z.array(z.enum(CANDLE_INTERVALS)),
    limits: z.object({
      candles: z.object({ default: z.int(), max: z.int() }),
      ticker: z.object({ default: z.int(), max: z.int() }),
    }),
    rateLimit: z.object({
      tier: z.enum(['free', 'pro', 'enterprise']),
      requestsPerMinute: z.int().min(1),
      windowSeconds: z.int(),
      tiers: z.object({ free: z.int(), pro: z.int(), enterprise: z.literal('custom') }),
    }),
    conventions: z.record(z.string(), z.string()),
    /** Every chain the screening knows, and what this deployment can do there (its endpoints, from its config). */
    chains: z.array(chainCapabilitySchema),
  }),
  timestamp: z.iso.datetime(),
});

/**
 * GET /capabilities: generated from the connector table and what is stored, the same sources the
 * query validates against, so the listing and the validation cannot drift apart.
 */
export function createCapabilitiesRouter(deps: {
  market: MarketStore;
  liveSync: LiveSyncInfo | null;
  /** The screening's chains (its `chainCapabilities` port). */
  chains: () => ChainCapability[];
}): Router {
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
      liveSync:
        deps.liveSync?.connector === id
          ? { symbols: deps.liveSync.symbols, pollSeconds: deps.liveSync.pollSeconds }
          : null,
      symbols: catalogue
        .filter((s) => s.connector === id)
        .map((s) => ({
          symbol: s.symbol,
          exchangeSymbol: s.exchangeSymbol,
          // ISO strings of one format order like the instants they name.
          from: s.series.reduce<string | null>(
            (earliest, x) => (earliest === null || x.first < earliest ? x.first : earliest),
            null,
          ),
          to: s.series.reduce<string | null>(
            (latest, x) => (latest === null || x.last > latest ? x.last : latest),
            null,
          ),
          intervals: s.series.map((x) => ({
            interval: x.interval,
            from: x.first,
            to: x.last,
            candles: x.candles,
            native: x.native,
          })),
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
          gaps:
            'a bucket without trades has no candle; intervals an exchange did not publish are rolled up from ' +
            'finer ones only where every part is known',
          ordering: 'ascending; without startTime the latest `limit` buckets',
        },
        chains: deps.chains(),
      },
      timestamp: new Date().toISOString(),
    });
  });
  return router;
}
