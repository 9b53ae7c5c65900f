import { CANDLE_INTERVALS } from './intervals';

/**
 * The venues candles come from. A symbol belongs to exactly one (market_symbols.connector); the
 * unified query names the connector, the candles route finds it from the symbol.
 */
export const MARKET_CONNECTORS = {
  kraken: {
    name: 'Kraken',
    market: 'spot',
    description: 'Kraken spot: its downloadable OHLCVT history, and its public REST OHLC endpoint when live sync is on',
  },
  binance: {
    name: 'Binance',
    market: 'spot',
    description: 'Binance spot: its public kline archives, and its public REST klines endpoint when live sync is on',
  },
  'binance-futures': {
    name: 'Binance USDⓈ-M futures',
    market: 'usdm-futures',
    description: 'Binance USDⓈ-M perpetual futures klines (public data archive)',
  },
} as const;
export type MarketConnectorId = keyof typeof MARKET_CONNECTORS;
export const MARKET_CONNECTOR_IDS = Object.keys(MARKET_CONNECTORS) as MarketConnectorId[];

export const CANDLE_LIMIT = { default: 100, max: 1000 } as const;
export const TICKER_LIMIT = { default: 100, max: 100 } as const;

/** What each data type accepts; capabilities prints this, and the query validates against the same table. */
export const MARKET_DATA_TYPES = {
  candles: {
    description: 'OHLCV buckets, ascending by open time. A bucket without trades has no candle (gaps stay gaps).',
    filters: {
      symbol: { type: 'string', required: true, description: 'Trading pair in BASE-QUOTE form, e.g. BTC-USD' },
      interval: { type: 'string', required: true, values: CANDLE_INTERVALS },
      startTime: {
        type: 'integer',
        required: false,
        description: 'Unix ms, inclusive, on the bucket open. With it: the first `limit` buckets from there',
      },
      endTime: {
        type: 'integer',
        required: false,
        description: 'Unix ms, exclusive, on the bucket open. Without startTime: the latest `limit` buckets before it',
      },
    },
    limit: CANDLE_LIMIT,
    fields: ['timestamp', 'open', 'high', 'low', 'close', 'volume', 'trades'],
  },
  ticker: {
    description:
      'The latest stored price (the close of the last bucket of the finest stored interval) ' +
      'with the 24 hours before it.',
    filters: {
      symbol: { type: 'string', required: false, description: 'One pair; without it every pair of the connector' },
    },
    limit: TICKER_LIMIT,
    fields: ['symbol', 'connector', 'price', 'timestamp', 'interval', 'window24h'],
  },
} as const;
export type MarketDataType = keyof typeof MARKET_DATA_TYPES;
export const MARKET_DATA_TYPE_IDS = Object.keys(MARKET_DATA_TYPES) as MarketDataType[];
