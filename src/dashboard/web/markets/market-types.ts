/** The parts of GET /api/v1/capabilities the Markets page uses. */
export interface Capabilities {
  connectors: MarketConnector[];
  intervals: string[];
  limits: { candles: { default: number; max: number } };
  rateLimit: { tier: string; requestsPerMinute: number; windowSeconds: number };
}

export interface MarketConnector {
  id: string;
  name: string;
  market: string;
  symbols: MarketSymbol[];
}

export interface MarketSymbol {
  symbol: string;
  exchangeSymbol: string;
  from: string | null;
  to: string | null;
  intervals: { interval: string; from: string; to: string; candles: number; native: boolean }[];
}

/** One GET /api/v1/market-data/candles bucket; `timestamp` is the bucket open, ISO 8601 UTC. */
export interface Candle {
  timestamp: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  trades: number | null;
}

export interface CandlesAnswer {
  data: Candle[];
  meta: { symbol: string; interval: string; total: number };
}

/** What the person picked; kept in the URL (#/markets/BTC-USD/1h/500) so a reload or a link keeps it. */
export interface CandleSelection {
  symbol: string;
  interval: string;
  limit: number;
}
