import { createHistoryStore } from '../history';
import type { FeatureApiRuntime, FeatureRoutes } from '../platform/features/feature-runtime';
import { configuredCapabilities, createEntityStore, type ScreeningConfig } from '../screening';
import type { X402Config } from './config';
import { buildFacilitator } from './facilitator';
import { createPaymentGate } from './payment-gate';
import { createX402PaymentStore } from './x402-payments-store';
import { createX402RateLimits } from './x402-rate-limits';
import { createX402ReportsRouter } from './x402-reports-routes';

/**
 * The pay-per-use reports (USDC on Base, no account), public: without a payee and a facilitator they answer 503, and
 * the api says so once as it builds them.
 */
export function x402Routes(runtime: FeatureApiRuntime): FeatureRoutes {
  // Screening's keys: the chains it can screen (capabilities), its timeouts and the bitcoin network.
  const config = runtime.config as X402Config & ScreeningConfig;
  const { pool, log } = runtime;
  const facilitator = buildFacilitator({
    url: config.X402_FACILITATOR_URL,
    rpcUrl: config.X402_RPC_URL,
    privateKey: config.X402_FACILITATOR_PRIVATE_KEY,
  });
  if (!facilitator || !config.X402_PAY_TO)
    log.warn(
      'x402 reports disabled: set X402_PAY_TO and X402_FACILITATOR_URL (or ' +
        'X402_RPC_URL + X402_FACILITATOR_PRIVATE_KEY); the report routes answer 503',
    );
  return {
    public: createX402ReportsRouter({
      servePaid:
        facilitator && config.X402_PAY_TO
          ? createPaymentGate({
              facilitator,
              payTo: config.X402_PAY_TO,
              payments: createX402PaymentStore(pool),
              limits: createX402RateLimits({
                pool,
                perAddressPerMinute: config.X402_RATE_LIMIT_PER_IP_PER_MINUTE,
                perPayerPerMinute: config.X402_RATE_LIMIT_PER_PAYER_PER_MINUTE,
              }),
              // Past the report's timeout and a settlement's (the facilitator's maxTimeoutSeconds, 120 s), with room.
              claimStaleAfterMs: config.X402_REPORT_TIMEOUT_MS + 5 * 60_000,
              log,
            })
          : undefined,
      temporal: runtime.temporal,
      taskQueue: runtime.taskQueue,
      capabilities: configuredCapabilities(config),
      entities: createEntityStore(pool),
      history: createHistoryStore(pool),
      crawlTimeoutMs: config.CRAWL_TIMEOUT_DEFAULT_MS,
      heartbeatTimeoutMs: config.ANALYSIS_HEARTBEAT_TIMEOUT_MS,
      reportTimeoutMs: config.X402_REPORT_TIMEOUT_MS,
      bitcoinNetwork: config.BITCOIN_NETWORK,
      log,
    }),
  };
}
