import { requestClusterMergeRescreens } from '../monitors';
import { createClusterPort } from '../entities';
import { configuredChains } from '../screening/chains/registry';
import { capabilitiesFor } from '../screening/engine/capabilities';
import { bundleWorkflowCode, type NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { Pool } from 'pg';
import path from 'node:path';
import { createActivities, type Activities, type ActivityDeps } from './activities';
import type { Config } from './config';
import { createChainClients } from '../screening/chains/registry';
import { createScreeningEngine } from '../screening/engine/engine';
import { loadPriceBook } from '../screening/engine/prices';
import { createReferenceData } from '../screening/engine/reference-data';
import { loadRiskModel } from '../screening/engine/risk-model';
import { createPayFastServerValidator, payfastValidateUrl } from '../billing/payfast/server-validation';
import { createStores } from './stores';
import { buildWorkerWebhookChecks, type WebhookVerifierOverrides } from './webhook-verifiers';
import { monitorsStoppedWithUser, stopUserMonitors } from '../monitors/stop-user-monitors';
import { releaseUserHolds } from '../billing';
import { queuedJobSweepThresholds } from '../screening/queued-job-sweeper';
import { batchWorkflowSettings } from '../batches';
import { createChainCacheStore, type ChainCacheStore } from '../screening/chains/chain-cache-store';
import { createStoredCloses } from '../market/store/market-closes';
import { liveSyncPlan } from '../market/domain/live/live-sync-plan';
import { listRefreshSources } from '../lists/refresh-sources';
import { createCachingChainClient } from '../screening/chains/cached-client';
import type { Chain } from '../screening/chains/chain';
import type { ChainClient } from '../screening/chains/chain-client';
import type { Logger } from '../platform/logging/logger';
import { activityLogContext } from '../platform/logging/activity-log-context';
import { workflowBundlerLogger } from '../platform/logging/workflow-bundler-logger';
import type { WorkerMetrics } from './metrics/worker-metrics';
import { caseSettings } from '../cases/case-settings';
import { createMemberRoleLookup } from '../identity/member-role';
import { createEvidenceSigner } from '../platform/signing/evidence-signer';
import { evidenceKeyRing } from '../platform/signing/evidence-key-ring';
import { workflowBundleOptions } from './workflow-entry';
import { featureActivities } from './feature-runtime';
import { createLogger } from '../platform/logging/logger';

/**
 * Default TTL an hour: exposure far from the screened address changes slowly, and a re-run after a list update then
 * needs no chain calls.
 */
function withChainCache(
  clients: Partial<Record<Chain, ChainClient>>,
  store: ChainCacheStore,
  transfersTtlMs: number,
): Partial<Record<Chain, ChainClient>> {
  return Object.fromEntries(
    Object.entries(clients).map(([chain, client]) => [
      chain,
      createCachingChainClient(client, store, { transfersTtlMs }),
    ]),
  );
}

export type WorkerConfig = Pick<
  Config,
  | 'TEMPORAL_TASK_QUEUE'
  | 'ANALYSIS_HEARTBEAT_TIMEOUT_MS'
  | 'CRAWL_TIMEOUT_DEFAULT_MS'
  | 'REFERENCE_DATA_DIR'
  | 'ETHEREUM_RPC_URL'
  | 'BSC_RPC_URL'
  | 'CHAIN_REQUEST_TIMEOUT_MS'
  | 'HTTP_MAX_RESPONSE_BYTES'
  | 'DATABASE_POOL_SIZE'
  | 'BITCOIN_ESPLORA_URL'
  | 'BITCOIN_RPC_URL'
  | 'BITCOIN_NETWORK'
  | 'TRON_API_URL'
  | 'TRON_API_KEY'
  | 'SOLANA_RPC_URL'
  | 'XRPL_RPC_URL'
  | 'CHAIN_CACHE_TRANSFERS_TTL_MS'
  | 'CLUSTER_REREAD_AFTER_MS'
  | 'EVIDENCE_SIGNING_KEYS'
  | 'MAX_CUSTOM_LABELS_PER_ACCOUNT'
  | 'MAX_OPEN_CASES_PER_ACCOUNT'
  | 'CASE_SLA_SECONDS'
  | 'CASE_FALSE_POSITIVE_SUPPRESSION_DAYS'
  | 'PAYFAST_MODE'
  | 'PAYFAST_SERVER_VALIDATION'
  | 'PAYFAST_MERCHANT_PASSPHRASE'
  | 'PAYFAST_MERCHANT_ID'
  | 'EVM_HISTORY_SOURCE'
  | 'ETHERSCAN_API_KEY'
  | 'ETHERSCAN_API_URL'
  | 'ETHERSCAN_RATE_PER_SECOND'
  | 'EVM_LOGS_WINDOW_BLOCKS'
  | 'EVM_LOGS_MAX_WINDOWS'
  | 'QUEUED_JOB_RESTART_AFTER_SECONDS'
  | 'QUEUED_JOB_ABANDON_AFTER_SECONDS'
  | 'BATCH_CONCURRENCY'
  | 'BATCH_CONTINUE_AS_NEW_AFTER'
  | 'CLERK_WEBHOOK_SECRET'
  | 'PAYPAL_MODE'
  | 'PAYPAL_WEBHOOK_ID'
  | 'PAYPAL_CLIENT_ID'
  | 'PAYPAL_CLIENT_SECRET'
  | 'PAYPAL_CERT_FAILURE_TTL_MS'
  | 'PAYPAL_POSTBACKS_PER_MINUTE'
  | 'OFAC_REFRESH_SOURCE'
  | 'OFAC_ISSUE_DIR'
  | 'MARKET_LIVE_CONNECTOR'
  | 'MARKET_LIVE_URL'
  | 'MARKET_LIVE_SYMBOLS'
  | 'MARKET_LIVE_INTERVAL'
  | 'MARKET_LIVE_POLL_SECONDS'
  | 'MARKET_LIVE_BACKFILL_CANDLES'
>;

/**
 * The real activities over Postgres, the reference lists, the configured chain clients and PayFast,
 * counting into `metrics` (the worker process's registry); tests may override parts.
 */
export function buildActivities(
  config: WorkerConfig,
  pool: Pool,
  metrics: WorkerMetrics,
  overrides: Partial<ActivityDeps> = {},
  /** The api's webhook verifier overrides (tests): the worker re-checks deliveries with the same verifiers. */
  verifiers: WebhookVerifierOverrides = {},
): Activities {
  const stores = createStores(pool);
  const model = loadRiskModel(config.REFERENCE_DATA_DIR);
  const engine = createScreeningEngine({
    referenceData: createReferenceData(pool),
    chainClients: withChainCache(
      createChainClients(config, metrics.chainCalls),
      createChainCacheStore(pool),
      config.CHAIN_CACHE_TRANSFERS_TTL_MS,
    ),
    prices: loadPriceBook(path.join(config.REFERENCE_DATA_DIR, '..', 'prices', 'usd-reference-prices.json')),
    model,
    storedCloses: createStoredCloses(pool),
    // The accounts' own lists: each screening reads its account's labels only (analyzeTarget passes accountId).
    customLabels: stores.customLabels,
    // Wallet clusters: each screening grows its parties' and crawled addresses' clusters within its call budget.
    clusters: createClusterPort(stores.clusters, {
      pageLimit: model.document.crawl.page_size,
      rereadAfterMs: config.CLUSTER_REREAD_AFTER_MS,
      onMerged: requestClusterMergeRescreens(pool),
    }),
  });
  const confirmWithPayFast = config.PAYFAST_SERVER_VALIDATION
    ? createPayFastServerValidator({ url: payfastValidateUrl(config.PAYFAST_MODE) })
    : undefined;
  const activities = createActivities({
    engine,
    pool,
    ...stores,
    confirmWithPayFast,
    // The payment workflow's ITN is verified again here, with the api's secrets, instead of trusting its input.
    payfastPassphrase: config.PAYFAST_MERCHANT_PASSPHRASE,
    payfastMerchantId: config.PAYFAST_MERCHANT_ID,
    metrics,
    capabilities: capabilitiesFor(configuredChains(config)),
    monitorJob: {
      heartbeatTimeoutMs: config.ANALYSIS_HEARTBEAT_TIMEOUT_MS,
      crawlTimeoutMs: config.CRAWL_TIMEOUT_DEFAULT_MS,
    },
    queuedJobSweep: queuedJobSweepThresholds(config),
    // A batch run's input is clamped to these (a hand-started run cannot start more items at once).
    batchWorkflow: batchWorkflowSettings(config),
    // Provider workflows are applied only after the worker checks their deliveries itself (PayPal, Clerk).
    ...buildWorkerWebhookChecks(config, verifiers),
    // A deleted user's monitors and holds go in its deactivation's transaction (monitors and billing are features).
    stopUserMonitors,
    monitorsStoppedWithUser,
    releaseUserHolds,
    // What a list refresh or a live market sync may read, whatever a workflow's input asks for.
    listSources: listRefreshSources(config),
    marketLive: liveSyncPlan(config),
    // Cases: the trail is signed with the evidence key as it is written; actions are recorded for active members only.
    memberRole: createMemberRoleLookup(pool),
    caseSigner: createEvidenceSigner(evidenceKeyRing(config.EVIDENCE_SIGNING_KEYS, pool)),
    caseSettings: caseSettings(config),
    maxCustomLabels: config.MAX_CUSTOM_LABELS_PER_ACCOUNT,
    ...overrides,
  });
  // The features that build their own activities (FeatureModule.activities), beside those still built here.
  const runtime = {
    config,
    pool,
    log: overrides.log ?? createLogger('silent'),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
  };
  return { ...activities, ...featureActivities(runtime, Object.keys(activities)) };
}

/**
 * A worker for the screening task queue. Activity concurrency matches the pool size, so activities
 * queue in Temporal rather than for a connection. shutdownForceTime keeps a stuck activity from
 * hanging shutdown forever (sdk-typescript#2266).
 */
export async function createWorker(options: {
  connection: NativeConnection;
  config: WorkerConfig;
  activities: Activities;
  namespace?: string;
  workflowBundlePath?: string;
  /**
   * Activity lines (and the domain code's under them) carry the job's workflowId and
   * httpRequestId; see activityLogContext.
   */
  log?: Logger;
}): Promise<Worker> {
  // Bundled here, not by Worker.create({ workflowsPath }), whose bundler logs webpack's whole module list at INFO
  // on every start; same runtime logger, that summary at debug. The bundle carries the workflow interceptors, as
  // the tests' prebuilt one (test/setup/global-setup.ts) does.
  const workflowBundle = options.workflowBundlePath
    ? { codePath: options.workflowBundlePath }
    : await bundleWorkflowCode({
        ...workflowBundleOptions(),
        logger: workflowBundlerLogger(Runtime.instance().logger),
      });
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace ?? 'default',
    taskQueue: options.config.TEMPORAL_TASK_QUEUE,
    workflowBundle,
    activities: options.activities,
    interceptors: { activity: [activityLogContext(options.log)] },
    maxConcurrentActivityTaskExecutions: Math.max(2, options.config.DATABASE_POOL_SIZE),
    shutdownGraceTime: '5s',
    shutdownForceTime: '15s',
  });
}
