import { Context } from '@temporalio/activity';
import type { Pool } from 'pg';
import { createBinanceKlineSource } from './domain/live/binance-klines';
import { createKrakenOhlcSource } from './domain/live/kraken-ohlc';
import { checkLiveSyncInput } from './domain/live/live-sync-check';
import type { LiveSyncPlan } from './domain/live/live-sync-plan';
import { syncSymbol, type SyncResult } from './domain/live/sync-symbol';
import type { MarketSyncSymbolInput } from './workflow-types';
import { toApplicationFailure } from '../platform/errors/temporal-failures';

export interface MarketActivityDeps {
  pool: Pool;
  /** The sync's clock (tests pin it to the recorded responses' time). */
  marketClock?: () => number;
  /** The worker's MARKET_LIVE_* (liveSyncPlan(config)); null or absent: every sync input is refused. */
  marketLive?: LiveSyncPlan | null;
}

/** Live market data: one symbol's catch-up per call. */
export function createMarketActivities(deps: MarketActivityDeps) {
  return {
    /**
     * Fetches only what the worker's MARKET_LIVE_* configure (checkLiveSyncInput, before any request: the input
     * may have been forged by whoever reaches the Temporal frontend), from the configured endpoint.
     * Idempotency: resumes from the stored native range and upserts by (symbol, interval, bucket), so a retry
     * adds nothing twice.
     */
    async syncMarketSymbol(input: MarketSyncSymbolInput): Promise<SyncResult> {
      try {
        const context = Context.current();
        const { baseUrl, target } = checkLiveSyncInput(
          deps.marketLive ?? null,
          input,
          context.info.workflowExecution?.workflowId ?? '',
        );
        const source =
          target.connector === 'binance' ? createBinanceKlineSource({ baseUrl }) : createKrakenOhlcSource({ baseUrl });
        return await syncSymbol(
          { pool: deps.pool, source, now: deps.marketClock ?? Date.now, signal: context.cancellationSignal },
          target,
        );
      } catch (err) {
        // An unknown pair, a refused request or a symbol another venue already feeds will not heal by retrying
        // (those errors say so themselves); the workflow logs it and moves on. An input the worker's config does
        // not match (MARKET_SYNC_NOT_CONFIGURED) ends the workflow.
        throw toApplicationFailure(err);
      }
    },
  };
}

export type MarketActivities = ReturnType<typeof createMarketActivities>;
