import { AppError } from '../../../platform/errors';
import type { MarketSyncSymbolInput } from '../../workflow-types';
import { marketSyncWorkflowId } from '../../workflow-ids';
import type { LiveSyncPlan } from './live-sync-plan';
import type { SyncTarget } from './sync-symbol';
import { MARKET_ERRORS } from '../../error-codes';

const refused = (why: string) =>
  new AppError(
    MARKET_ERRORS.MARKET_SYNC_NOT_CONFIGURED,
    `${why}: a live sync runs only as this worker's MARKET_LIVE_* configure it (workflow market-sync:<connector>)`,
  );

/**
 * What one syncMarketSymbol call may fetch, from the worker's own plan (liveSyncPlan(config)), or
 * MARKET_SYNC_NOT_CONFIGURED (not retryable) before any request: whoever reaches the Temporal frontend can start
 * marketSyncWorkflow with any endpoint, symbols or poll interval, so the workflow's whole input must be the one
 * the worker would have started (reconcileMarketSync), under the connector's one workflow id, so that a second
 * workflow cannot double the requests to the exchange either. The endpoint is always the plan's.
 */
export function checkLiveSyncInput(
  plan: LiveSyncPlan | null,
  input: MarketSyncSymbolInput,
  workflowId: string,
): { baseUrl: string; target: SyncTarget } {
  if (!plan) throw refused('the live sync is off on this worker (MARKET_LIVE_CONNECTOR)');
  if (input?.connector !== plan.connector) throw refused('another connector than MARKET_LIVE_CONNECTOR');
  if (workflowId !== marketSyncWorkflowId(plan.connector))
    throw refused(`the workflow is not ${marketSyncWorkflowId(plan.connector)}`);
  if (input.baseUrl !== undefined && input.baseUrl !== plan.baseUrl)
    throw refused('another endpoint than MARKET_LIVE_URL');
  if (input.interval !== plan.interval) throw refused('another interval than MARKET_LIVE_INTERVAL');
  if (input.backfillCandles !== plan.backfillCandles)
    throw refused('another backfill than MARKET_LIVE_BACKFILL_CANDLES');
  if (input.pollSeconds !== plan.pollSeconds) throw refused('another poll interval than MARKET_LIVE_POLL_SECONDS');
  const symbols = Array.isArray(input.symbols) ? input.symbols : [];
  const sameSymbols =
    symbols.length === plan.symbols.length &&
    plan.symbols.every((s, i) => symbols[i]?.symbol === s.symbol && symbols[i]?.exchangeSymbol === s.exchangeSymbol);
  if (!sameSymbols) throw refused('other symbols than MARKET_LIVE_SYMBOLS');
  const symbol = plan.symbols.find((s) => s.symbol === input.symbol && s.exchangeSymbol === input.exchangeSymbol);
  if (!symbol) throw refused('a symbol not in MARKET_LIVE_SYMBOLS');
  return {
    baseUrl: plan.baseUrl,
    target: {
      connector: plan.connector,
      symbol: symbol.symbol,
      exchangeSymbol: symbol.exchangeSymbol,
      interval: plan.interval,
      backfillCandles: plan.backfillCandles,
    },
  };
}
