import type { CandleInterval } from './domain/intervals';

/** What one live sync workflow polls (from MARKET_LIVE_* at the worker's start). */
export interface MarketSyncInput {
  connector: 'binance' | 'kraken';
  baseUrl: string;
  interval: CandleInterval;
  backfillCandles: number;
}

export interface MarketSyncWorkflowInput extends MarketSyncInput {
  symbols: { symbol: string; exchangeSymbol: string }[];
  pollSeconds: number;
}
