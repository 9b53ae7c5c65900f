import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { PlatformConfig } from '../platform/config/platform-config';
import type { MarketConfig } from './config';
import { liveSyncPlan } from './domain/live/live-sync-plan';
import type { Logger } from '../platform/logging/logger';
import { marketSyncWorkflowId } from './workflow-ids';
import type { MarketSyncWorkflowInput } from './workflow-types';
import { ProviderAttr } from '../platform/temporal/search-attributes';

type SyncConfig = Pick<PlatformConfig, 'TEMPORAL_TASK_QUEUE'> &
  Pick<
    MarketConfig,
    | 'MARKET_LIVE_CONNECTOR'
    | 'MARKET_LIVE_URL'
    | 'MARKET_LIVE_SYMBOLS'
    | 'MARKET_LIVE_INTERVAL'
    | 'MARKET_LIVE_POLL_SECONDS'
    | 'MARKET_LIVE_BACKFILL_CANDLES'
  >;

const CONNECTORS = ['binance', 'kraken'] as const;

/**
 * Makes the running live syncs match this process's config: the configured connector's workflow
 * is (re)started with TERMINATE_EXISTING, so the newest config wins and exactly one runs per
 * exchange; a connector that is no longer configured has its workflow terminated.
 */
export async function reconcileMarketSync(client: Client, config: SyncConfig, log: Logger): Promise<string | null> {
  const plan = liveSyncPlan(config);
  for (const connector of CONNECTORS) {
    if (plan?.connector === connector) continue;
    try {
      await client.workflow.getHandle(marketSyncWorkflowId(connector)).terminate('live sync no longer configured');
      log.info('market sync stopped', { connector });
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  }
  if (!plan) return null;
  // The endpoint stays in the worker's config (it may carry a key): every activity reads its own MARKET_LIVE_URL.
  const input: MarketSyncWorkflowInput = {
    connector: plan.connector,
    interval: plan.interval,
    backfillCandles: plan.backfillCandles,
    symbols: plan.symbols,
    pollSeconds: plan.pollSeconds,
  };
  const id = marketSyncWorkflowId(plan.connector);
  await client.workflow.start('marketSyncWorkflow', {
    workflowId: id,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [input],
    workflowIdConflictPolicy: 'TERMINATE_EXISTING',
    typedSearchAttributes: [{ key: ProviderAttr, value: plan.connector }],
    staticSummary:
      `live candles from ${plan.connector}: ${plan.symbols.map((s) => s.symbol).join(', ')} ` +
      `every ${plan.pollSeconds} s`,
  });
  log.info('market sync running', {
    workflowId: id,
    symbols: plan.symbols.map((s) => s.symbol),
    pollSeconds: plan.pollSeconds,
  });
  return id;
}
