/**
 * The runs scripts/record-workflow-histories.ts records, one per shape of history the worker produces: each workflow
 * type, and each path through it that issues another sequence of commands (a failure, a case opened, a child
 * followed instead of started, a signal that pauses or stops). Activities are stubs; only what the workflow reads from
 * their results matters. A scenario's name is its fixture's file name, and a fixture, once recorded, is never
 * recorded again: a new shape is a new scenario under a new name.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { httpRequestMemo } from '../src/platform/temporal/http-request-memo';
import { screeningWorkflowId } from '../src/screening/workflow-ids';
import type { screeningWorkflow } from '../src/screening/workflows';
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
  sweepSummary,
} from '../test/workflows/workflow-samples';

type Stub = (input: any) => Promise<unknown>;

export interface Scenario {
  /** The fixture's file name, without .json. */
  name: string;
  /** A workflow type some feature exports (the recorder refuses one none does). */
  workflowType: string;
  /** The workflow's one argument; undefined starts it with none (as the sweeper's schedule does). */
  input: unknown;
  stubs: Record<string, Stub>;
  memo?: Record<string, string>;
  /** What must exist before the workflow starts (e.g. a child's workflow an earlier run started). */
  prepare?: (client: Client, taskQueue: string) => Promise<void>;
  /** For a workflow that never ends by itself: cancel it once this many activity calls were made. */
  cancelAfterCalls?: number;
  /** What is sent to the workflow once it started (signals, updates), in order. */
  drive?: (handle: WorkflowHandle) => Promise<void>;
}

/** The settles of a job (a screening's, a batch item's, a monitor's re-screen). */
const settles: Record<string, Stub> = {
  settleCompletedJob: async () => ({ applied: true, mirrorWrite: null }),
  settleFailedJob: async () => true,
};
const lowRisk = async () => analysisResult({ depthReached: 1, riskLevel: 'LOW' });
const highRisk = async () => analysisResult({ depthReached: 1, riskLevel: 'HIGH' });
const invalidTarget = async () => {
  throw ApplicationFailure.nonRetryable('unsupported chain dogecoin', 'INVALID_TARGET');
};
const caseOpened = (caseId: string) => async () => ({ outcome: 'opened', caseId });

const ANALYST = '11111111-1111-4111-8111-111111111111';
const APPROVER = '22222222-2222-4222-8222-222222222222';
const ROLES: Record<string, string> = { [ANALYST]: 'analyst', [APPROVER]: 'approver' };

/** A case as loadCase answers it, with its SLA (seconds to assign) for every severity. */
function caseStubs(snapshot: { severity: string; sanctions: boolean }, assignWithinSeconds = 86_400) {
  return {
    loadCase: async () => ({
      snapshot: {
        state: 'open',
        assigneeId: null,
        proposal: null,
        disposition: null,
        decidedBy: null,
        fingerprint: '',
        escalations: 0,
        jobs: [],
        ...snapshot,
      },
      trailLength: 0,
      slaSince: new Date().toISOString(),
      sla: Object.fromEntries(
        ['low', 'medium', 'high', 'critical'].map((s) => [
          s,
          { assignWithin: assignWithinSeconds, decideWithin: 604_800 },
        ]),
      ),
      appliedUpdateIds: [],
    }),
    confirmActor: async (input: { memberId: string }) => ({ role: ROLES[input.memberId] }),
    appendCaseEntries: async (input: { entries: unknown[] }) => input.entries.length,
  };
}
/** A member's action as the api sends it (the update's one argument). */
const caseAction = (memberId: string, action: Record<string, unknown>) => ({
  args: [{ memberId, role: ROLES[memberId], action }] as [unknown],
});

/** A monitor's activities: each re-screen is ready (a child screening job) and evaluates as `evaluation` says. */
function monitorStubs(evaluate: (reasons: string[]) => { status: string; reason?: string }) {
  return {
    ...settles,
    analyzeTarget: lowRisk,
    prepareMonitorScreening: async (input: { requestId: string }) => ({
      status: 'ready',
      input: screeningInput({ requestId: input.requestId }),
    }),
    evaluateMonitorScreening: async (input: { reasons: string[] }) => evaluate(input.reasons),
  };
}
const monitorInput = (monitorId: string) => ({ monitorId, userId: 'user-0001', chain: 'bitcoin', everyHours: 24 });

/** A monitor's baseline, then a `rescreen` signal whose re-screen alerts and opens case `caseId`; cancelled after. */
function alertingMonitorScenario(name: string, monitorId: string, caseId: string): Scenario {
  return {
    name,
    workflowType: 'monitorWorkflow',
    input: monitorInput(monitorId),
    cancelAfterCalls: 9,
    drive: async (handle) => {
      await delay(1500);
      await handle.signal('rescreen', { reason: 'sanctions list version changed a watched address' });
    },
    stubs: {
      ...monitorStubs((reasons) =>
        reasons.includes('monitor created') ? { status: 'baseline' } : { status: 'alerted', reason: 'stub' },
      ),
      openCaseForMonitorAlert: caseOpened(caseId),
    },
  };
}

/**
 * Item 1's job was started by an earlier run of its batch (it ran; its mirror still says queued): the child start is
 * refused and the item followed (asked, a timer, asked again) until it finished.
 */
function followedBatchItem(): Scenario {
  let asked = 0;
  const batch = batchStubs(3, {
    prefix: 'batch-0004-req-',
    settle: async () => (++asked === 1 ? 'running' : 'finished'),
  });
  return {
    name: 'batch-screening-followed',
    workflowType: 'batchScreeningWorkflow',
    input: batchWorkflowInput({ batchId: 'batch-0004', concurrency: 2 }),
    prepare: async (client, taskQueue) => {
      const requestId = batch.requestId(1);
      await client.workflow.execute<typeof screeningWorkflow>('screeningWorkflow', {
        taskQueue,
        workflowId: screeningWorkflowId(requestId),
        args: [screeningInput({ requestId })],
      });
      batch.queued.add(1);
    },
    stubs: batch.stubs,
  };
}

export const SCENARIOS: Scenario[] = [
  {
    // A LOW answer: analysis, then the settle (a local activity's marker); no case.
    name: 'screening-completed',
    workflowType: 'screeningWorkflow',
    input: screeningInput(),
    memo: httpRequestMemo('http-req-0001'),
    stubs: { ...settles, analyzeTarget: lowRisk },
  },
  {
    // Patch screening-analysis-as-local-activity: the analysis and the settle are both local activities' markers.
    name: 'screening-completed-local-analysis',
    workflowType: 'screeningWorkflow',
    input: screeningInput({ requestId: 'req-0007' }),
    memo: httpRequestMemo('http-req-0007'),
    stubs: { ...settles, analyzeTarget: lowRisk },
  },
  {
    // Patch screening-analysis-as-local-activity: a failed local analysis, then the failed settle.
    name: 'screening-failed-local-analysis',
    workflowType: 'screeningWorkflow',
    input: screeningInput({ requestId: 'req-0008', chain: 'dogecoin' }),
    stubs: { ...settles, analyzeTarget: invalidTarget },
  },
  {
    // A HIGH answer opens or joins its subject's case after the settle.
    name: 'screening-completed-opens-case',
    workflowType: 'screeningWorkflow',
    input: screeningInput({ requestId: 'req-0004' }),
    stubs: { ...settles, analyzeTarget: highRisk, openCaseForJob: caseOpened('case-0001') },
  },
  {
    // A failed analysis: the hold released and the mirror failed in one settle.
    name: 'screening-failed-invalid-target',
    workflowType: 'screeningWorkflow',
    input: screeningInput({ requestId: 'req-0002', chain: 'dogecoin' }),
    stubs: { ...settles, analyzeTarget: invalidTarget },
  },
  {
    // An input the analysis refuses as not the api's: the workflow fails, nothing settled.
    name: 'screening-input-not-authentic',
    workflowType: 'screeningWorkflow',
    input: screeningInput({ requestId: 'req-0006' }),
    stubs: {
      ...settles,
      analyzeTarget: async () => {
        throw ApplicationFailure.nonRetryable('no hold for this request id, user and amount', 'INPUT_NOT_AUTHENTIC');
      },
    },
  },
  {
    // A batch's item: analysis and settle, both local activities.
    name: 'batch-item-screening',
    workflowType: 'batchItemScreeningWorkflow',
    input: screeningInput({ requestId: 'req-0003', maxDepth: 1, creditsHeld: 1 }),
    stubs: { ...settles, analyzeTarget: lowRisk },
  },
  {
    name: 'batch-item-screening-opens-case',
    workflowType: 'batchItemScreeningWorkflow',
    input: screeningInput({ requestId: 'req-0007', maxDepth: 1, creditsHeld: 1 }),
    stubs: { ...settles, analyzeTarget: highRisk, openCaseForJob: caseOpened('case-0004') },
  },
  {
    // The local analysis fails: the failed settle is an ordinary activity.
    name: 'batch-item-screening-failed',
    workflowType: 'batchItemScreeningWorkflow',
    input: screeningInput({ requestId: 'req-0008', chain: 'dogecoin', maxDepth: 1, creditsHeld: 1 }),
    stubs: { ...settles, analyzeTarget: invalidTarget },
  },
  {
    // As its schedule starts it (no argument): the single jobs, then the batches left without a workflow.
    name: 'queued-job-sweeper',
    workflowType: 'queuedJobSweeperWorkflow',
    input: undefined,
    stubs: {
      sweepQueuedJobs: async () => sweepSummary,
      sweepStalledBatches: async () => ({ batchesExamined: 1, batchesStarted: 1 }),
    },
  },
  {
    // The input checked first (checkBatchRun), then three items two at a time as child jobs, progress, completion.
    name: 'batch-screening',
    workflowType: 'batchScreeningWorkflow',
    input: batchWorkflowInput({ concurrency: 2 }),
    stubs: batchStubs(3).stubs,
  },
  {
    // Two items per run: the first run drains its children and continues as new (its history is the one kept).
    name: 'batch-screening-continued',
    workflowType: 'batchScreeningWorkflow',
    input: batchWorkflowInput({ batchId: 'batch-0002', concurrency: 2, continueAsNewAfter: 2 }),
    stubs: batchStubs(3, { prefix: 'batch-0002-req-' }).stubs,
  },
  followedBatchItem(),
  {
    name: 'paypal-event',
    workflowType: 'paypalEventWorkflow',
    input: payPalEventInput(),
    stubs: { applyPayPalEvent: async () => eventResult() },
  },
  {
    // The worker checks the ITN, then applies the ITN it verified.
    name: 'payfast-payment',
    workflowType: 'payfastPaymentWorkflow',
    input: payFastPaymentInput(),
    stubs: {
      checkPayFastItn: async (input) => ({ itn: input.itn, refusal: null }),
      applyPayFastItn: async () => eventResult(),
    },
  },
  {
    // PayFast did not confirm it: recorded rejected, nothing applied.
    name: 'payfast-payment-refused',
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
    // A deleted user's monitors: `stop` signalled to each monitor workflow (none runs here).
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
    stubs: { analyzeTarget: lowRisk },
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
    input: monitorInput('mon-0001'),
    cancelAfterCalls: 4,
    stubs: monitorStubs(() => ({ status: 'baseline' })),
  },
  // Its baseline, then a re-screen that alerts and opens a case; cancelled after.
  alertingMonitorScenario('monitor-alerted', 'mon-0002', 'case-0002'),
  {
    // Patch monitor-rescreen-steps-as-local-activities: the baseline's prepare and evaluate are local activities.
    name: 'monitor-local-steps',
    workflowType: 'monitorWorkflow',
    input: monitorInput('mon-0005'),
    cancelAfterCalls: 4,
    stubs: monitorStubs(() => ({ status: 'baseline' })),
  },
  // Patch monitor-rescreen-steps-as-local-activities: a re-screen that alerts opens its case from a local activity.
  alertingMonitorScenario('monitor-alerted-local-steps', 'mon-0006', 'case-0009'),
  {
    // The owner cannot pay its baseline: paused until `resume` (a grant), then the baseline; cancelled after.
    name: 'monitor-paused-resumed',
    workflowType: 'monitorWorkflow',
    input: monitorInput('mon-0003'),
    cancelAfterCalls: 6,
    drive: async (handle) => {
      await delay(1500);
      await handle.signal('resume');
    },
    stubs: (() => {
      let prepared = 0;
      const stubs = monitorStubs(() => ({ status: 'baseline' }));
      return {
        ...stubs,
        prepareMonitorScreening: async (input: { requestId: string }) =>
          ++prepared === 1 ? { status: 'insufficient_credits' } : stubs.prepareMonitorScreening(input),
        resumeMonitor: async () => true,
      };
    })(),
  },
  {
    // Its baseline, then `stop` (the monitor deleted): the workflow completes.
    name: 'monitor-stopped',
    workflowType: 'monitorWorkflow',
    input: monitorInput('mon-0004'),
    drive: async (handle) => {
      await delay(1500);
      await handle.signal('stop');
    },
    stubs: monitorStubs(() => ({ status: 'baseline' })),
  },
  {
    // An alert opens it, a comment, then a proposal that closes it (medium, no sanctions: no four eyes).
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
      await handle.executeUpdate('comment', caseAction(ANALYST, { action: 'comment', text: 'looked at it' }));
      await handle.executeUpdate(
        'propose',
        caseAction(ANALYST, { action: 'propose', disposition: 'false_positive', note: null }),
      );
    },
    stubs: caseStubs({ severity: 'medium', sanctions: false }),
  },
  {
    // Sanctions: assigned, proposed by the analyst, approved by an approver (four eyes), which closes it.
    name: 'case-four-eyes',
    workflowType: 'caseWorkflow',
    input: { caseId: 'case-0005', accountId: 'acct-0001' },
    drive: async (handle) => {
      await handle.executeUpdate('assign', caseAction(ANALYST, { action: 'assign', assigneeId: ANALYST }));
      await handle.executeUpdate(
        'propose',
        caseAction(ANALYST, { action: 'propose', disposition: 'true_positive', note: 'listed' }),
      );
      await handle.executeUpdate('approve', caseAction(APPROVER, { action: 'approve', note: null }));
    },
    stubs: caseStubs({ severity: 'high', sanctions: true }),
  },
  {
    // Nobody takes it within its SLA (1 s here): the timer escalates it; cancelled after that entry.
    name: 'case-escalated',
    workflowType: 'caseWorkflow',
    input: { caseId: 'case-0006', accountId: 'acct-0001' },
    cancelAfterCalls: 2,
    stubs: caseStubs({ severity: 'medium', sanctions: false }, 1),
  },
  {
    // Signals each monitor the version touched (none runs here: the signals fail and are let go).
    name: 'list-version-notice',
    workflowType: 'listVersionNoticeWorkflow',
    input: { versionId: 7, issueDate: '2025-03-21' },
    stubs: { monitorsTouchedBy: async () => ['mon-0101', 'mon-0102'] },
  },
  {
    // A new version applied: its notice runs as a child.
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
      monitorsTouchedBy: async () => [],
    },
  },
  {
    name: 'list-refresh-unchanged',
    workflowType: 'listRefreshWorkflow',
    input: { list: 'ofac', source: 'https://example.invalid/SDN_ADVANCED.XML' },
    stubs: {
      refreshSanctionsList: async () => ({
        status: 'unchanged',
        version: 2,
        issueDate: '2025-03-21',
        added: 0,
        removed: 0,
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
