import { Context } from '@temporalio/activity';
import type { Pool } from 'pg';
import { createBinanceKlineSource } from '../src/market/domain/live/binance-klines';
import { createKrakenOhlcSource } from '../src/market/domain/live/kraken-ohlc';
import { syncSymbol, type SyncResult, type SyncTarget } from '../src/market/domain/live/sync-symbol';
import type { MarketSyncInput } from '../src/market/workflow-types';
import { toApplicationFailure } from '../src/platform/errors/temporal-failures';

export interface MarketActivityDeps {
  pool: Pool;
  /** The sync's clock (tests pin it to the recorded responses' time). */
  marketClock?: () => number;
}

/** Live market data: one symbol's catch-up per call. */
export function createMarketActivities(deps: MarketActivityDeps) {
  return {
    /**
     * Idempotency: resumes from the stored native range and upserts by (symbol, interval, bucket), so a retry
     * adds nothing twice.
     */
    async syncMarketSymbol(input: MarketSyncInput & { symbol: string; exchangeSymbol: string }): Promise<SyncResult> {
      const source =
        input.connector === 'binance'
          ? createBinanceKlineSource({ baseUrl: input.baseUrl })
          : createKrakenOhlcSource({ baseUrl: input.baseUrl });
      const target: SyncTarget = {
        connector: input.connector,
        symbol: input.symbol,
        exchangeSymbol: input.exchangeSymbol,
        interval: input.interval,
        backfillCandles: input.backfillCandles,
      };
      try {
        return await syncSymbol(
          { pool: deps.pool, source, now: deps.marketClock ?? Date.now, signal: Context.current().cancellationSignal },
          target,
        );
      } catch (err) {
        // An unknown pair, a refused request or a symbol another venue already feeds will not heal by retrying
        // (those errors say so themselves); the workflow logs it and moves on.
        throw toApplicationFailure(err);
      }
    },
  };
}

export type MarketActivities = ReturnType<typeof createMarketActivities>;
