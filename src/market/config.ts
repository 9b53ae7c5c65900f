import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';
import { envFlag } from '../platform/config/env-readers';
import { SYMBOL_PATTERN } from '../platform/http/common-patterns';

/** One MARKET_LIVE_SYMBOLS entry: SYMBOL or SYMBOL=EXCHANGEPAIR. */
const LIVE_SYMBOL = `${SYMBOL_PATTERN}(=[A-Za-z0-9]+)?`;

/** The candle files loaded at start, and the live sync from an exchange. */
const variables = z.object({
  /** Candle files listed in <dir>/catalog.json (provenance in <dir>/SOURCES.md), loaded at start when they changed. */
  MARKET_DATA_DIR: z.string().min(1).default('data/market'),
  LOAD_MARKET_DATA: envFlag.default(true),
  /** Live candle sync from an exchange's public REST API (a Temporal workflow on the worker); off by default. */
  MARKET_LIVE_CONNECTOR: z.enum(['off', 'binance', 'kraken']).default('off'),
  /** Base URL of that API (default https://api.binance.com or https://api.kraken.com). */
  MARKET_LIVE_URL: z.string().url().optional(),
  /**
   * Our symbols to sync, comma-separated; SYMBOL=EXCHANGEPAIR names the exchange's pair (default
   * BTC-USDT=BTCUSDT / BTC-USD=XBTUSD).
   */
  MARKET_LIVE_SYMBOLS: z
    .string()
    .regex(
      new RegExp(`^\\s*${LIVE_SYMBOL}(\\s*,\\s*${LIVE_SYMBOL})*\\s*$`),
      'comma-separated SYMBOL or SYMBOL=EXCHANGEPAIR, e.g. BTC-USDT=BTCUSDT',
    )
    .optional(),
  MARKET_LIVE_INTERVAL: z.enum(['1m', '5m', '15m', '30m', '1h', '4h', '1d']).default('1m'),
  MARKET_LIVE_POLL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
  /** How far back a symbol's first sync (or one after a long pause) reaches, in buckets of the interval. */
  MARKET_LIVE_BACKFILL_CANDLES: z.coerce.number().int().min(1).max(100_000).default(1000),
});

export const marketConfigSlice = configSlice({ variables });

export type MarketConfig = SliceConfig<typeof marketConfigSlice>;
