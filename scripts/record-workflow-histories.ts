/**
 * Records one event history per workflow type (and the failure path of a screening job, and both outcomes of a
 * validated PayFast ITN) into test/fixtures/workflow-histories/<name>.json, by running the current workflows on
 * a local dev server with stubbed activities. test/workflows/replay.test.ts replays them against the workflows
 * of every later change: a change that would break workflows already running in production fails there.
 *
 * Run it (`npx tsx scripts/record-workflow-histories.ts`) when a new workflow type is added, or when a change
 * is meant to be incompatible (and is shipped with a new workflow type or a patch); never to make a failing
 * replay pass. Names given (`… record-workflow-histories.ts batch-screening`) record only those scenarios and leave
 * every other history as it was recorded: the histories of older code are what the replay test holds new code to.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import * as workflows from '../workflows';
import { httpRequestMemo } from '../src/platform/temporal/http-request-memo';
import { installTemporalRuntime } from '../src/platform/temporal/temporal-runtime';
import {
  analysisResult,
  batchStubs,
  batchWorkflowInput,
  clerkEventInput,
  eventResult,
  marketSyncInput,
  payFastPaymentInput,
  payFastRefundInput,
  payPalEventInput,
  screeningInput,
  sweepInput,
  sweepSummary,
} from '../test/workflows/workflow-samples';
import { historyToJson } from '../test/workflows/history-json';
import {
  callLog,
  logged,
  startStubbedWorker,
  startWorkflowTestEnv,
  workflowBundle,
} from '../test/workflows/workflow-test-env';

const FIXTURES = path.resolve(__dirname, '..', 'test', 'fixtures', 'workflow-histories');

type Stub = (input: any) => Promise<unknown>;

interface Scenario {
  /** The fixture's file name, without .json. */
  name: string;
  workflowType: keyof typeof workflows;
  input: unknown;
  stubs: Record<string, Stub>;
  memo?: Record<string, string>;
  /** For a workflow that never ends by itself: cancel it once this many activity calls were made. */
  cancelAfterCalls?: number;
  /** What is sent to the workflow once it started (signals, updates), in order. */
  drive?: (handle: WorkflowHandle) => Promise<void>;
}

const CASE_MEMBER = '11111111-1111-4111-8111-111111111111';
/** A case as loadCase answers it: open, medium, no sanctions (one member's proposal closes it). */
const caseStubs: Record<string, Stub> = {
  loadCase: async () => ({
    snapshot: {
      state: 'open',
      severity: 'medium',
      sanctions: false,
      assigneeId: null,
      proposal: null,
      disposition: null,
      decidedBy: null,
      fingerprint: '',
      escalations: 0,
      jobs: [],
    },
    trailLength: 0,
    slaSince: '2026-11-27T10:00:00.000Z',
    sla: Object.fromEntries(
      ['low', 'medium', 'high', 'critical'].map((s) => [s, { assignWithin: 86_400, decideWithin: 604_800 }]),
    ),
    appliedUpdateIds: [],
  }),
  confirmActor: async () => ({ role: 'analyst' }),
  appendCaseEntries: async (input: { entries: unknown[] }) => input.entries.length,
};

const screeningDb: Record<string, Stub> = {
  chargeCredits: async (input) => ({ duplicate: false, amount: input.amount }),
  releaseCredits: async () => 3,
  recordScreeningActivity: async () => 'history-row-1',
  saveJobResult: async () => true,
  settleCompletedJob: async () => true,
  settleFailedJob: async () => true,
};

/**
 * Histories of paths the current code no longer takes for new workflows (they sit behind a patch) but that
 * workflows started before it still replay: this script cannot record them again, so they are kept until no such
 * workflow runs. payfast-payment-*: the input's serverValidation flag chose the path, before the worker checked
 * the ITN itself (patch payfast-itn-checked-by-worker). screening-*-{four,two}-activities: a job's separate charge,
 * history and mirror writes (or release and mirror), before the patch job-settles-in-one-transaction.
 */
const RECORDED_BY_OLDER_CODE = new Set([
  'payfast-payment-confirmed.json',
  'payfast-payment-rejected.json',
  'screening-completed-four-activities.json',
  'screening-failed-invalid-target-two-activities.json',
]);

const SCENARIOS: Scenario[] = [
  {
    name: 'screening-completed',
    workflowType: 'screeningWorkflow',
    input: screeningInput(),
    memo: httpRequestMemo('http-req-0001'),
    stubs: { ...screeningDb, analyzeTarget: async () => analysisResult({ depthReached: 2 }) },
  },
  {
    name: 'screening-failed-invalid-target',
    workflowType: 'screeningWorkflow',
    input: screeningInput({ requestId: 'req-0002', chain: 'dogecoin' }),
    stubs: {
      ...screeningDb,
      analyzeTarget: async () => {
        throw ApplicationFailure.nonRetryable('unsupported chain dogecoin', 'INVALID_TARGET');
      },
    },
  },
  {
    // A batch's item: analyze, then one settle activity (charge, history, mirror).
    name: 'batch-item-screening',
    workflowType: 'batchItemScreeningWorkflow',
    input: screeningInput({ requestId: 'req-0003', maxDepth: 1, creditsHeld: 1 }),
    stubs: { ...screeningDb, analyzeTarget: async () => analysisResult({ depthReached: 1 }) },
  },
  {
    name: 'queued-job-sweeper',
    workflowType: 'queuedJobSweeperWorkflow',
    input: sweepInput,
    stubs: { sweepQueuedJobs: async () => sweepSummary },
  },
  {
    name: 'paypal-event',
    workflowType: 'paypalEventWorkflow',
    input: payPalEventInput(),
    stubs: { applyPayPalEvent: async () => eventResult() },
  },
  {
    name: 'payfast-payment-checked',
    workflowType: 'payfastPaymentWorkflow',
    input: payFastPaymentInput(),
    stubs: {
      checkPayFastItn: async (input) => ({ itn: input.itn, refusal: null }),
      applyPayFastItn: async () => eventResult(),
    },
  },
  {
    name: 'payfast-payment-checked-invalid',
    workflowType: 'payfastPaymentWorkflow',
    input: payFastPaymentInput(),
    stubs: {
      checkPayFastItn: async (input) => ({
        itn: input.itn,
        refusal: 'PayFast answered INVALID to /eng/query/validate',
      }),
      recordPayFastRejection: async () => eventResult({ outcome: 'rejected', credits: 0, transactionId: null }),
    },
  },
  {
    name: 'payfast-refund',
    workflowType: 'payfastRefundWorkflow',
    input: payFastRefundInput,
    stubs: { applyPayFastRefund: async () => eventResult({ outcome: 'revoked', credits: -100 }) },
  },
  {
    name: 'clerk-event',
    workflowType: 'clerkEventWorkflow',
    input: clerkEventInput,
    stubs: { applyClerkEvent: async () => eventResult({ outcome: 'applied', credits: 0, transactionId: null }) },
  },
  {
    // A deleted user's monitors: the patched path signals `stop` to each monitor workflow (none runs here).
    name: 'clerk-event-deleted-user',
    workflowType: 'clerkEventWorkflow',
    input: clerkEventInput,
    stubs: {
      applyClerkEvent: async () => ({
        ...eventResult({ outcome: 'applied', credits: 0, transactionId: null }),
        stoppedMonitorIds: ['monitor-1', 'monitor-2'],
      }),
    },
  },
  {
    name: 'x402-report',
    workflowType: 'x402ReportWorkflow',
    input: screeningInput({ requestId: 'x402-report-1' }),
    stubs: { analyzeTarget: async () => analysisResult({ depthReached: 1, riskLevel: 'LOW' }) },
  },
  {
    // Two rounds (one symbol refused each time), then cancelled: the loop, its failure path and its timer.
    name: 'market-sync',
    workflowType: 'marketSyncWorkflow',
    input: marketSyncInput(),
    cancelAfterCalls: 4,
    stubs: {
      syncMarketSymbol: async (input: { symbol: string }) => {
        if (input.symbol === 'ETH-USD') throw ApplicationFailure.nonRetryable('unknown pair', 'MARKET_SOURCE_REJECTED');
        return { symbol: input.symbol, requests: 1, candles: 2, knownUntil: 1_700_000_000_000 };
      },
    },
  },
  {
    // Created: its baseline re-screen (a child screening job), then waiting for the next; cancelled there.
    name: 'monitor',
    workflowType: 'monitorWorkflow',
    input: { monitorId: 'mon-0001', userId: 'user-0001', chain: 'bitcoin', everyHours: 24 },
    cancelAfterCalls: 6,
    stubs: {
      ...screeningDb,
      analyzeTarget: async () => analysisResult({ depthReached: 1, riskLevel: 'LOW' }),
      prepareMonitorScreening: async (input: { requestId: string }) => ({
        status: 'ready',
        input: screeningInput({ requestId: input.requestId }),
      }),
      evaluateMonitorScreening: async () => ({ status: 'baseline' }),
    },
  },
  {
    // A HIGH job opens or joins its subject's case after the settle (patch jobs-open-cases).
    name: 'screening-completed-opens-case',
    workflowType: 'screeningWorkflow',
    input: screeningInput({ requestId: 'req-0004' }),
    stubs: {
      ...screeningDb,
      analyzeTarget: async () => analysisResult({ depthReached: 1, riskLevel: 'HIGH' }),
      openCaseForJob: async () => ({ outcome: 'opened', caseId: 'case-0001' }),
    },
  },
  {
    // Its baseline, then a re-screen that alerts and opens a case (patch monitors-open-cases); cancelled after.
    name: 'monitor-alerted',
    workflowType: 'monitorWorkflow',
    input: { monitorId: 'mon-0002', userId: 'user-0001', chain: 'bitcoin', everyHours: 24 },
    cancelAfterCalls: 9,
    drive: async (handle) => {
      await delay(1500);
      await handle.signal('rescreen', { reason: 'sanctions list version changed a watched address' });
    },
    stubs: {
      ...screeningDb,
      analyzeTarget: async () => analysisResult({ depthReached: 1, riskLevel: 'LOW' }),
      prepareMonitorScreening: async (input: { requestId: string }) => ({
        status: 'ready',
        input: screeningInput({ requestId: input.requestId }),
      }),
      evaluateMonitorScreening: async (input: { reasons: string[] }) =>
        input.reasons.includes('monitor created') ? { status: 'baseline' } : { status: 'alerted', reason: 'stub' },
      openCaseForMonitorAlert: async () => ({ outcome: 'opened', caseId: 'case-0002' }),
    },
  },
  {
    // A case: an alert opens it, a comment, then a proposal that closes it (medium, no sanctions: no four eyes).
    name: 'case',
    workflowType: 'caseWorkflow',
    input: { caseId: 'case-0003', accountId: 'acct-0001' },
    drive: async (handle) => {
      await handle.signal('alert', {
        alertKey: 'job:req-0005',
        source: 'job',
        requestId: 'req-0005',
        fingerprint: 'fp-1',
        severity: 'medium',
        sanctions: false,
      });
      const request = (action: Record<string, unknown>) => ({ memberId: CASE_MEMBER, role: 'analyst', action });
      await handle.executeUpdate('comment', { args: [request({ action: 'comment', text: 'looked at it' })] });
      await handle.executeUpdate('propose', {
        args: [request({ action: 'propose', disposition: 'false_positive', note: null })],
      });
    },
    stubs: caseStubs,
  },
  {
    // With the sweep of batches left without a workflow (patch sweep-batches).
    name: 'queued-job-sweeper-batches',
    workflowType: 'queuedJobSweeperWorkflow',
    input: undefined,
    stubs: {
      sweepQueuedJobs: async () => sweepSummary,
      sweepStalledBatches: async () => ({ batchesExamined: 1, batchesStarted: 1 }),
    },
  },
  {
    // Three items, two at a time: child screening jobs, a progress notice, the completion.
    name: 'batch-screening',
    workflowType: 'batchScreeningWorkflow',
    input: batchWorkflowInput({ concurrency: 2 }),
    stubs: batchStubs(3).stubs,
  },
  {
    // A run that checks its input first (patch batch-run-checked): the check, then the items as above.
    name: 'batch-screening-checked',
    workflowType: 'batchScreeningWorkflow',
    input: batchWorkflowInput({ batchId: 'batch-0003', concurrency: 2 }),
    stubs: batchStubs(3, { prefix: 'batch-0003-req-' }).stubs,
  },
  {
    // Two items per run: the first run drains its children and continues as new (its history is the one kept).
    name: 'batch-screening-continued',
    workflowType: 'batchScreeningWorkflow',
    input: batchWorkflowInput({ batchId: 'batch-0002', concurrency: 2, continueAsNewAfter: 2 }),
    stubs: batchStubs(3, { prefix: 'batch-0002-req-' }).stubs,
  },
  {
    name: 'list-version-notice',
    workflowType: 'listVersionNoticeWorkflow',
    input: { versionId: 7, issueDate: '2025-03-21' },
    stubs: { monitorsTouchedBy: async () => [] },
  },
  {
    name: 'list-refresh',
    workflowType: 'listRefreshWorkflow',
    input: { list: 'ofac', source: 'https://example.invalid/SDN_ADVANCED.XML' },
    stubs: {
      refreshSanctionsList: async () => ({
        status: 'applied',
        version: 2,
        issueDate: '2025-03-21',
        added: 0,
        removed: 90,
        changed: 0,
      }),
    },
  },
  {
    // Both chains read side by side, each one activity call.
    name: 'freeze-sync',
    workflowType: 'freezeSyncWorkflow',
    input: { sources: ['ethereum', 'tron'] },
    stubs: {
      syncStablecoinFreezes: async (input: { source: 'ethereum' | 'tron' }) => ({
        source: input.source,
        contracts: [
          {
            chain: input.source,
            token: 'USDT',
            contract:
              input.source === 'ethereum'
                ? '0xdac17f958d2ee523a2206206994597c13d831ec7'
                : 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
            from: '1',
            to: '2',
            windows: 1,
            events: 1,
            changed: 1,
            caughtUp: true,
          },
        ],
      }),
    },
  },
];

async function main(): Promise<void> {
  const missing = Object.keys(workflows).filter((type) => !SCENARIOS.some((s) => s.workflowType === type));
  if (missing.length) throw new Error(`no scenario records ${missing.join(', ')}: add one to this script`);
  const only = process.argv.slice(2);
  const unknown = only.filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length) throw new Error(`no scenario named ${unknown.join(', ')}`);
  const scenarios = only.length ? SCENARIOS.filter((s) => only.includes(s.name)) : SCENARIOS;

  // The failures the scenarios stage would each print a warning with a stack: errors only.
  installTemporalRuntime('error');
  const activityNames = [...new Set(scenarios.flatMap((s) => Object.keys(s.stubs)))];
  const [env, bundle] = await Promise.all([startWorkflowTestEnv(), workflowBundle()]);
  const worker = await startStubbedWorker(env, bundle, activityNames);
  try {
    await mkdir(FIXTURES, { recursive: true });
    for (const old of await readdir(FIXTURES)) {
      const recordedNow = only.length === 0 || only.includes(old.replace(/\.json$/, ''));
      if (old.endsWith('.json') && recordedNow && !RECORDED_BY_OLDER_CODE.has(old)) await rm(path.join(FIXTURES, old));
    }
    for (const scenario of scenarios) {
      const log = callLog();
      worker.use(logged(log, scenario.stubs));
      const handle = await env.client.workflow.start(scenario.workflowType, {
        taskQueue: worker.taskQueue,
        workflowId: `${scenario.name}-${worker.taskQueue}`,
        args: [scenario.input],
        memo: scenario.memo,
      });
      await scenario.drive?.(handle);
      if (scenario.cancelAfterCalls !== undefined) {
        while (log.calls.length < scenario.cancelAfterCalls) await delay(20);
        await handle.cancel();
      }
      await handle.result().catch(() => undefined);
      // The first run's: a workflow that continued as new is kept with the run that did it.
      const history = await env.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).fetchHistory();
      await writeFile(path.join(FIXTURES, `${scenario.name}.json`), historyToJson(history));
      console.log(`${scenario.name}.json: ${scenario.workflowType}, ${history.events?.length ?? 0} events`);
    }
  } finally {
    await worker.stop();
    await env.teardown();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
