import type { CandleInterval } from './domain/intervals';

/** What one live sync workflow polls (from MARKET_LIVE_* at the worker's start). */
export interface MarketSyncInput {
  connector: 'binance' | 'kraken';
  /**
   * Written by runs started before the endpoint stayed in the worker's config: the worker reads its own
   * MARKET_LIVE_URL and refuses an input whose baseUrl is another one. New runs leave it out (it may carry a key).
   */
  baseUrl?: string;
  interval: CandleInterval;
  backfillCandles: number;
}

export interface MarketSyncWorkflowInput extends MarketSyncInput {
  symbols: { symbol: string; exchangeSymbol: string }[];
  pollSeconds: number;
}

/**
 * One syncMarketSymbol call: the workflow's whole input, which the worker checks against its own MARKET_LIVE_*
 * before any request, and the symbol this call catches up.
 */
export interface MarketSyncSymbolInput extends MarketSyncWorkflowInput {
  symbol: string;
  exchangeSymbol: string;
}
