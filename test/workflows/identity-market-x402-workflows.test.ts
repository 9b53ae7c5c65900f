/**
 * clerkEventWorkflow, marketSyncWorkflow and x402ReportWorkflow on a dev server of their own, with stubbed
 * activities: results passed through, the UserId attribute, and a failing market symbol not stopping the others.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import type { IdentityActivities } from '../../src/identity/activities';
import type { MarketActivities } from '../../src/market/activities';
import type { ScreeningActivities } from '../../src/screening/activities';
import { UserIdAttr } from '../../src/platform/temporal/search-attributes';
import type { clerkEventWorkflow } from '../../src/identity/workflows';
import type { marketSyncWorkflow } from '../../src/market/workflows';
import type { x402ReportWorkflow } from '../../src/x402/workflows';
import { analysisResult, clerkEventInput, eventResult, marketSyncInput, screeningInput } from './workflow-samples';
import { callLog, logged, useStubbedWorker, type StubActivities } from './workflow-test-env';

const ACTIVITIES = ['applyClerkEvent', 'syncMarketSymbol', 'analyzeTarget'];

const testbed = useStubbedWorker(ACTIVITIES);

let runs = 0;
const nextWorkflowId = (prefix: string): string => `${prefix}-${++runs}-${testbed.worker.taskQueue}`;

describe('clerkEventWorkflow', () => {
  test("returns the activity's result and tags the workflow with the user", async () => {
    const log = callLog();
    const applied = eventResult({ outcome: 'applied', credits: 0, transactionId: null, userId: 'user-5' });
    const stubs: StubActivities<IdentityActivities> = { applyClerkEvent: async () => applied };
    testbed.worker.use(logged(log, stubs));
    const handle = await testbed.env.client.workflow.start<typeof clerkEventWorkflow>('clerkEventWorkflow', {
      taskQueue: testbed.worker.taskQueue,
      workflowId: nextWorkflowId('clerk'),
      args: [clerkEventInput],
    });

    expect(await handle.result()).toEqual(applied);
    expect(log.calls).toEqual([{ name: 'applyClerkEvent', input: clerkEventInput }]);
    expect((await handle.describe()).typedSearchAttributes.get(UserIdAttr)).toBe('user-5');
  });
});

describe('marketSyncWorkflow', () => {
  test('a symbol the exchange refuses is logged and tried again next round; the other keeps syncing', async () => {
    const log = callLog();
    const stubs: StubActivities<MarketActivities> = {
      syncMarketSymbol: async (input) => {
        if (input.symbol === 'ETH-USD') throw ApplicationFailure.nonRetryable('unknown pair', 'MARKET_SOURCE_REJECTED');
        return { symbol: input.symbol, requests: 1, candles: 2, knownUntil: 1_700_000_000_000 };
      },
    };
    testbed.worker.use(logged(log, stubs));
    const input = marketSyncInput();
    const handle = await testbed.env.client.workflow.start<typeof marketSyncWorkflow>('marketSyncWorkflow', {
      taskQueue: testbed.worker.taskQueue,
      workflowId: nextWorkflowId('market-sync'),
      args: [input],
    });
    try {
      // Three rounds are enough to see the failing symbol come back every round.
      const until = Date.now() + 15_000;
      while (log.count('syncMarketSymbol') < 6 && Date.now() < until) await delay(20);
      expect((await handle.describe()).status.name).toBe('RUNNING');
    } finally {
      // Cancelled, not terminated: the workflow ends through its own code, with no task left in flight.
      await handle.cancel();
      await handle.result().catch(() => undefined);
    }

    const symbols = log.calls.map((c) => (c.input as { symbol: string }).symbol);
    expect(symbols.slice(0, 6)).toEqual(['BTC-USD', 'ETH-USD', 'BTC-USD', 'ETH-USD', 'BTC-USD', 'ETH-USD']);
    // The whole input goes along, for the worker to check against its MARKET_LIVE_*.
    expect(log.calls[0]?.input).toEqual({ ...input, symbol: 'BTC-USD', exchangeSymbol: 'BTCUSDT' });
  });

  test(
    'an input the worker did not configure ' + '(MARKET_SYNC_NOT_CONFIGURED) ends the workflow at its first call',
    async () => {
      const log = callLog();
      const stubs: StubActivities<MarketActivities> = {
        syncMarketSymbol: async () => {
          throw ApplicationFailure.nonRetryable('not this worker’s sync', 'MARKET_SYNC_NOT_CONFIGURED');
        },
      };
      testbed.worker.use(logged(log, stubs));
      const handle = await testbed.env.client.workflow.start<typeof marketSyncWorkflow>('marketSyncWorkflow', {
        taskQueue: testbed.worker.taskQueue,
        workflowId: nextWorkflowId('market-sync'),
        args: [marketSyncInput()],
      });
      const error = await handle.result().catch((err: unknown) => err);
      expect((error as { cause?: { cause?: { type?: string } } }).cause?.cause?.type).toBe(
        'MARKET_SYNC_NOT_CONFIGURED',
      );
      expect(log.count('syncMarketSymbol')).toBe(1);
    },
  );
});

describe('x402ReportWorkflow', () => {
  test('returns the analysis, with no credits involved', async () => {
    const log = callLog();
    const input = screeningInput({ requestId: 'x402-report-1' });
    const analysis = analysisResult({ depthReached: 2, riskLevel: 'MEDIUM' });
    const stubs: StubActivities<Pick<ScreeningActivities, 'analyzeTarget'>> = { analyzeTarget: async () => analysis };
    testbed.worker.use(logged(log, stubs));
    const result = await testbed.env.client.workflow.execute<typeof x402ReportWorkflow>('x402ReportWorkflow', {
      taskQueue: testbed.worker.taskQueue,
      workflowId: nextWorkflowId('x402'),
      args: [input],
    });

    expect(result).toEqual(analysis);
    expect(log.calls).toEqual([{ name: 'analyzeTarget', input }]);
  });

  test('a retryable failure is tried twice, then the workflow fails with its code (nothing to settle)', async () => {
    const log = callLog();
    const stubs: StubActivities<Pick<ScreeningActivities, 'analyzeTarget'>> = {
      analyzeTarget: async () => {
        throw ApplicationFailure.retryable('node down', 'CHAIN_UNAVAILABLE');
      },
    };
    testbed.worker.use(logged(log, stubs));
    const failure = await testbed.env.client.workflow
      .execute<typeof x402ReportWorkflow>('x402ReportWorkflow', {
        taskQueue: testbed.worker.taskQueue,
        workflowId: nextWorkflowId('x402'),
        args: [screeningInput()],
      })
      .catch((err: unknown) => err);

    expect(log.count('analyzeTarget')).toBe(2);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const activityFailure = (failure as WorkflowFailedError).cause;
    expect(activityFailure).toBeInstanceOf(ActivityFailure);
    expect((activityFailure as ActivityFailure).cause).toMatchObject({
      type: 'CHAIN_UNAVAILABLE',
      message: 'node down',
    });
  });

  test('an input with no live payment claim (INPUT_NOT_AUTHENTIC) is refused once and fails the workflow', async () => {
    const log = callLog();
    const stubs: StubActivities<Pick<ScreeningActivities, 'analyzeTarget'>> = {
      analyzeTarget: async () => {
        throw ApplicationFailure.nonRetryable('no live x402 payment claim for this request id', 'INPUT_NOT_AUTHENTIC');
      },
    };
    testbed.worker.use(logged(log, stubs));
    const failure = await testbed.env.client.workflow
      .execute<typeof x402ReportWorkflow>('x402ReportWorkflow', {
        taskQueue: testbed.worker.taskQueue,
        workflowId: nextWorkflowId('x402'),
        args: [screeningInput()],
      })
      .catch((err: unknown) => err);

    expect(log.count('analyzeTarget')).toBe(1);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(((failure as WorkflowFailedError).cause as ActivityFailure).cause).toMatchObject({
      type: 'INPUT_NOT_AUTHENTIC',
    });
  });
});
