import type { Pool } from 'pg';
import type { Logger } from '../platform/logging/logger';
import type { MarketConfig } from './config';
import { loadMarketData } from './store/market-files';

/** The candle files of MARKET_DATA_DIR into Postgres (LOAD_MARKET_DATA; only files that changed). */
export async function prepareMarket(deps: { pool: Pool; config: Readonly<Record<string, unknown>>; log: Logger }) {
  const config = deps.config as MarketConfig;
  if (config.LOAD_MARKET_DATA) await loadMarketData(deps.pool, config.MARKET_DATA_DIR, deps.log);
}
