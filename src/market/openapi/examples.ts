/** Market data's examples for the document, copied from real answers of a running stack (`npm start`; Nov 2026). */

export const MARKET_EXAMPLES = {
  candles: {
    data: [
      {
        timestamp: '2023-09-29T00:00:00.000Z',
        open: 27027.3,
        high: 27225.7,
        low: 26692,
        close: 26920.1,
        volume: 2046.27520387,
        trades: 20114,
      },
      {
        timestamp: '2023-09-30T00:00:00.000Z',
        open: 26920.1,
        high: 27096,
        low: 26888.3,
        close: 26972.9,
        volume: 591.63366313,
        trades: 14799,
      },
    ],
    meta: { symbol: 'BTC-USD', interval: '1d', total: 2 },
  },
  candlesQuery: {
    connector: 'binance',
    dataType: 'candles',
    filters: { symbol: 'BTC-USDT', interval: '1w' },
    limit: 2,
  },
  candlesQueryAnswer: {
    success: true,
    data: [
      {
        timestamp: '2024-12-09T00:00:00.000Z',
        open: 101109.6,
        high: 105250,
        low: 94150.05,
        close: 104463.99,
        volume: 230968.339905,
        trades: 48813901,
      },
      {
        timestamp: '2024-12-16T00:00:00.000Z',
        open: 104463.99,
        high: 108353,
        low: 92232.54,
        close: 95186.27,
        volume: 281544.242246,
        trades: 46077110,
      },
    ],
    meta: { connector: 'binance', dataType: 'candles', symbol: 'BTC-USDT', interval: '1w', total: 2 },
    timestamp: '2026-11-23T09:08:14.202Z',
  },
} as const;

export const MARKET_ERROR_EXAMPLES = {
  symbolNotFound: {
    success: false,
    error: {
      code: 'SYMBOL_NOT_FOUND',
      message: 'Unknown symbol "BTC-XXX"',
      details: {
        parameter: 'symbol',
        expected: 'one of ALGO-USDT, AVAX-USD, BTC-USD, BTC-USDC, BTC-USDT, DOT-USD, ETH-USD, SOL-USD',
      },
    },
  },
} as const;
