/**
 * Inputs and activity results for running the workflows with stubbed activities (the fast workflow tests and
 * scripts/record-workflow-histories.ts). Only the fields the workflows read are meaningful.
 */
import type { BatchWorkflowInput } from '../../src/batches/workflow-types';
import type { PayFastPaymentInput, PayFastRefundInput, PayPalEventInput } from '../../src/billing/workflow-types';
import type { ClerkEventInput } from '../../src/identity/workflow-types';
import type { MarketSyncWorkflowInput } from '../../src/market/workflow-types';
import type { EventResult } from '../../src/platform/webhooks/event-result';
import type { AnalysisResult, FullResponse, ScreeningResponse } from '../../src/screening/engine/types';
import type { QueuedJobSweepThresholds } from '../../src/screening/queued-job-sweeper';
import type { QueuedJobSweepSummary, RiskLevel, ScreeningInput } from '../../src/screening/workflow-types';

export function screeningInput(overrides: Partial<ScreeningInput> = {}): ScreeningInput {
  return {
    requestId: 'req-0001',
    userId: 'user-1',
    apiType: 'KYA',
    chain: 'ethereum',
    target: '0x00000000000000000000000000000000000000aa',
    crawlTimeoutMs: 10_000,
    maxDepth: 3,
    creditsHeld: 3,
    heartbeatTimeoutMs: 5_000,
    referenceId: null,
    ...overrides,
  };
}

export function analysisResult(options: {
  depthReached: number;
  riskLevel?: RiskLevel;
  responseId?: string;
}): AnalysisResult {
  const response: ScreeningResponse = {
    api_type: 'KYA',
    chain: 'ethereum',
    risk_level: options.riskLevel ?? 'HIGH',
    risk_score: 80,
    response_id: options.responseId ?? 'resp-0001',
    risk_reason: 'stub',
    rule_scores: {
      tag_score: 0,
      is_sanctioned: 0,
      is_blacklisted: 0,
      receive_count: 0,
      address_type: 0,
      active_duration: 0,
    },
    target_summary: { address: '0x00000000000000000000000000000000000000aa', tags: [], balances: [] },
  };
  // The workflow passes `full` through to the mirror untouched: a stand-in is enough.
  const full = { ...response, stub: true } as unknown as FullResponse;
  return { response, full, depthReached: options.depthReached };
}

/** Thresholds a caller may pass as the sweeper's input: ignored, the worker's config decides them. */
export const sweepInput: QueuedJobSweepThresholds = {
  restartAfterMs: 60_000,
  abandonAfterMs: 600_000,
  limit: 50,
  heartbeatTimeoutMs: 5_000,
};
export const sweepSummary: QueuedJobSweepSummary = {
  examined: 4,
  restarted: 1,
  running: 1,
  released: 1,
  repaired: 1,
  left: 0,
};

export function eventResult(overrides: Partial<EventResult> = {}): EventResult {
  return {
    duplicate: false,
    outcome: 'granted',
    userId: 'user-1',
    credits: 100,
    transactionId: 'tx-1',
    detail: null,
    ...overrides,
  };
}

export function payPalEventInput(overrides: Partial<PayPalEventInput> = {}): PayPalEventInput {
  return {
    event: {
      kind: 'sale',
      eventId: 'WH-0001',
      eventType: 'PAYMENT.SALE.COMPLETED',
      createTime: null,
      sale: {
        saleId: 'SALE-1',
        state: 'completed',
        subscriptionId: 'I-SUB1',
        custom: null,
        createdAt: null,
        total: '10.00',
        currency: 'USD',
      },
    },
    payload: { id: 'WH-0001' },
    // Short, so a retried "subscription not known yet" costs the test milliseconds.
    unknownSubscriptionRetryMs: 50,
    ...overrides,
  };
}

export function payFastPaymentInput(overrides: Partial<PayFastPaymentInput> = {}): PayFastPaymentInput {
  return {
    itn: {
      pfPaymentId: '1089250',
      paymentStatus: 'COMPLETE',
      mPaymentId: 'checkout-1',
      amountGross: '100.00',
      customStr1: 'user-1',
      fields: { pf_payment_id: '1089250', payment_status: 'COMPLETE' },
    },
    validationParamString: 'm_payment_id=checkout-1&pf_payment_id=1089250&payment_status=COMPLETE',
    ...overrides,
  };
}

export const payFastRefundInput: PayFastRefundInput = {
  pfPaymentId: '1089250',
  refundId: 'refund-1',
  amountCents: null,
  reason: 'customer asked',
  recordedBy: 'admin-1',
};

export const clerkEventInput: ClerkEventInput = {
  svixId: 'msg_0001',
  deliveredAtMs: 1_700_000_000_000,
  event: { type: 'user.created', data: { id: 'user_clerk_1' }, timestamp: 1_700_000_000_000 },
};

export function marketSyncInput(overrides: Partial<MarketSyncWorkflowInput> = {}): MarketSyncWorkflowInput {
  return {
    connector: 'binance',
    baseUrl: 'http://127.0.0.1:1',
    interval: '1m',
    backfillCandles: 10,
    symbols: [
      { symbol: 'BTC-USD', exchangeSymbol: 'BTCUSDT' },
      { symbol: 'ETH-USD', exchangeSymbol: 'ETHUSDT' },
    ],
    // Rounds every 50 ms: a test sees several in well under a second.
    pollSeconds: 0.05,
    ...overrides,
  };
}

/**
 * Stubs of the batch activities over `count` items in memory (request ids `<prefix><i>`): an item is queued until
 * its job's settle runs, as the trigger of 100_batches.sql makes it. The settles are the child jobs' database
 * activities, which report here.
 */
export function batchStubs(
  count: number,
  options: { prefix?: string; settle?: (requestId: string) => Promise<'finished' | 'running'> } = {},
) {
  const prefix = options.prefix ?? 'batch-req-';
  const queued = new Set(Array.from({ length: count }, (_, i) => i));
  const requestId = (i: number) => `${prefix}${i}`;
  const indexOf = (id: string) => Number(id.slice(prefix.length));
  const stubs = {
    // A genuine batch: its input stands (the worker's figures are not smaller here).
    checkBatchRun: async (input: { concurrency: number; continueAsNewAfter: number }) => ({
      concurrency: input.concurrency,
      continueAsNewAfter: input.continueAsNewAfter,
    }),
    loadBatchItems: async (input: { afterIndex: number; limit: number }) =>
      [...queued]
        .filter((i) => i > input.afterIndex)
        .sort((a, b) => a - b)
        .slice(0, input.limit)
        .map((index) => ({
          index,
          input: screeningInput({ requestId: requestId(index), maxDepth: 1, creditsHeld: 1 }),
        })),
    settleBatchItem: async (input: { requestId: string }) => {
      const state = options.settle ? await options.settle(input.requestId) : 'finished';
      if (state === 'finished') queued.delete(indexOf(input.requestId));
      return state;
    },
    publishBatchProgress: async () => undefined,
    completeBatch: async () => ({ completed: queued.size === 0, queued: queued.size }),
    settleCompletedJob: async (input: { job: { requestId: string } }) => {
      if (input.job.requestId.startsWith(prefix)) queued.delete(indexOf(input.job.requestId));
      return true;
    },
    settleFailedJob: async (update: { requestId: string }) => {
      if (update.requestId.startsWith(prefix)) queued.delete(indexOf(update.requestId));
      return true;
    },
    analyzeTarget: async () => analysisResult({ depthReached: 1, riskLevel: 'LOW' }),
  };
  return { stubs, queued, requestId };
}

export const batchWorkflowInput = (overrides: Partial<BatchWorkflowInput> = {}): BatchWorkflowInput => ({
  batchId: 'batch-0001',
  userId: 'user-1',
  concurrency: 2,
  continueAsNewAfter: 250,
  ...overrides,
});
