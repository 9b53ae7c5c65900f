/** Market workflows: the live candle sync per exchange. Deterministic code only. */
import { continueAsNew, log, proxyActivities, sleep } from '@temporalio/workflow';
import type { MarketActivities } from './activities';
import { failureCode } from '../platform/errors/temporal-failures';
import { MARKET_ERRORS } from './error-codes';
import type { MarketSyncWorkflowInput } from './workflow-types';

/** Rounds per run before continue-as-new, so the history stays small however long the sync runs. */
const ROUNDS_PER_RUN = 100;

/**
 * Live candles (id `market-sync:<connector>`): every pollSeconds, each symbol catches up from where
 * its stored series ends. A symbol that keeps failing is logged and tried again next round; it
 * never stops the others. Operators see the rounds, and each symbol's result, in the Temporal UI.
 * Each call hands the activity the whole input, which the worker checks against its MARKET_LIVE_*: an input it
 * did not configure (another endpoint, symbol, interval or workflow id) fails the workflow at its first call.
 */
export async function marketSyncWorkflow(input: MarketSyncWorkflowInput): Promise<void> {
  const { syncMarketSymbol } = proxyActivities<MarketActivities>({
    startToCloseTimeout: '5 minutes',
    retry: { initialInterval: '2s', maximumInterval: '30s', maximumAttempts: 3 },
  });
  for (let round = 0; round < ROUNDS_PER_RUN; round++) {
    for (const s of input.symbols) {
      try {
        await syncMarketSymbol({ ...input, symbol: s.symbol, exchangeSymbol: s.exchangeSymbol });
      } catch (err) {
        // Not this worker's sync (a forged input, or one of a config since replaced): no later round would differ.
        if (failureCode(err) === MARKET_ERRORS.MARKET_SYNC_NOT_CONFIGURED.code) throw err;
        const message = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
        log.warn('market sync failed for a symbol; next round retries it', {
          symbol: s.symbol,
          type: failureCode(err),
          message,
        });
      }
    }
    await sleep(input.pollSeconds * 1000);
  }
  await continueAsNew<typeof marketSyncWorkflow>(input);
}
