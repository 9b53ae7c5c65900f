/**
 * screeningWorkflow and queuedJobSweeperWorkflow on a dev server of their own, with stubbed activities:
 * what a job is charged, the order of its writes, and how each kind of analysis failure ends.
 */
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import type { BatchActivities } from '../../src/batches/activities';
import type { QueuedJobActivities } from '../../src/screening/sweeper-activities';
import type { ScreeningActivities } from '../../src/screening/activities';
import { JobStatusAttr, RiskLevelAttr } from '../../src/platform/temporal/search-attributes';
import type { JobUpdate } from '../../src/screening/jobs-store';
import {
  completedMirrorWrite,
  failedMirrorWrite,
  type CompletedJobSettlement,
  type FailedJobSettlement,
} from '../../src/screening/settle-job';
import { jobCost } from '../../src/screening/pricing';
import type { ScreeningInput, ScreeningOutcome } from '../../src/screening/workflow-types';
import type { queuedJobSweeperWorkflow, screeningWorkflow } from '../../src/screening/workflows';
import { analysisResult, screeningInput, sweepInput, sweepSummary } from './workflow-samples';
import { callLog, logged, useStubbedWorker, type CallLog, type StubActivities } from './workflow-test-env';

const ACTIVITIES = ['analyzeTarget', 'settleCompletedJob', 'settleFailedJob', 'sweepQueuedJobs', 'sweepStalledBatches'];

const testbed = useStubbedWorker(ACTIVITIES);

let runs = 0;

/** The database activities succeed; analyzeTarget is the test's. */
function screeningStubs(log: CallLog, analyzeTarget: (input: ScreeningInput) => Promise<unknown>) {
  const stubs: StubActivities<ScreeningActivities> = {
    analyzeTarget,
    settleCompletedJob: async () => true,
    settleFailedJob: async () => true,
  };
  return logged(log, stubs);
}

interface ScreeningRun {
  outcome: ScreeningOutcome;
  log: CallLog;
  jobStatus: string | undefined;
  riskLevel: string | undefined;
  /** The run's start time and final history length (what a mirror write's seq is made of). */
  startedAt: Date;
  historyLength: number;
}

async function runScreening(
  input: ScreeningInput,
  analyzeTarget: (input: ScreeningInput) => Promise<unknown>,
): Promise<ScreeningRun> {
  const log = callLog();
  testbed.worker.use(screeningStubs(log, analyzeTarget));
  const handle = await testbed.env.client.workflow.start<typeof screeningWorkflow>('screeningWorkflow', {
    taskQueue: testbed.worker.taskQueue,
    workflowId: `screening:${input.requestId}-${++runs}-${testbed.worker.taskQueue}`,
    args: [input],
  });
  const outcome = await handle.result();
  const description = await handle.describe();
  const attributes = description.typedSearchAttributes;
  return {
    outcome,
    log,
    jobStatus: attributes.get(JobStatusAttr),
    riskLevel: attributes.get(RiskLevelAttr),
    startedAt: description.startTime,
    historyLength: description.historyLength,
  };
}

/** The mirror write of the run's settle (the job's second and last activity), as the sweeper's repair reads it. */
function savedUpdate(log: CallLog): JobUpdate {
  if (log.count('settleFailedJob') > 0) return failedMirrorWrite(log.inputOf('settleFailedJob') as FailedJobSettlement);
  return completedMirrorWrite(log.inputOf('settleCompletedJob') as CompletedJobSettlement);
}

describe('screeningWorkflow, completed analysis', () => {
  test(
    'settles in one activity after the analysis: charges what the crawl cost, ' + 'history and mirror with it',
    async () => {
      const input = screeningInput({ creditsHeld: 5 });
      const result = analysisResult({ depthReached: 3, riskLevel: 'HIGH', responseId: 'resp-42' });
      const { outcome, log, jobStatus, riskLevel } = await runScreening(input, async () => result);

      const cost = jobCost(3);
      expect(cost).toBeLessThan(input.creditsHeld);
      expect(log.names()).toEqual(['analyzeTarget', 'settleCompletedJob']);
      expect(log.inputOf('settleCompletedJob')).toMatchObject({ job: input, result, amount: cost });
      expect(savedUpdate(log)).toMatchObject({
        requestId: input.requestId,
        status: 'completed',
        response: result.response,
        fullResponse: result.full,
        error: null,
        creditsCharged: cost,
      });
      expect(log.count('settleFailedJob')).toBe(0);
      expect(outcome).toEqual({
        status: 'completed',
        responseId: 'resp-42',
        riskLevel: 'HIGH',
        creditsCharged: cost,
        error: null,
      });
      expect(jobStatus).toBe('completed');
      expect(riskLevel).toBe('HIGH');
    },
  );

  test(
    'the mirror write seq is exact past 2^53: run start (ms) × 100,000 + history length, ' + 'as decimal digits',
    async () => {
      const run = await runScreening(screeningInput(), async () => analysisResult({ depthReached: 1 }));
      const seq = savedUpdate(run.log).seq;

      // As a JS number (about 1.7e17) it would round to a multiple of 32, and two writes of one run could tie.
      expect(typeof seq).toBe('string');
      expect(seq).toMatch(/^\d+$/);
      const exact = BigInt(seq);
      expect(exact).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
      // runStartTime (the run's first task) is a few ms after the execution's start time.
      const runStartMs = Number(exact / BigInt(100_000));
      expect(runStartMs).toBeGreaterThanOrEqual(run.startedAt.getTime());
      expect(runStartMs - run.startedAt.getTime()).toBeLessThan(5_000);
      const historyAtWrite = Number(exact % BigInt(100_000));
      expect(historyAtWrite).toBeGreaterThan(0);
      expect(historyAtWrite).toBeLessThan(run.historyLength);
    },
  );

  test('never charges more than the credits held, even when the crawl reached deeper', async () => {
    const input = screeningInput({ creditsHeld: 2 });
    const deep = analysisResult({ depthReached: 6, riskLevel: 'LOW' });
    const { outcome, log } = await runScreening(input, async () => deep);

    expect(jobCost(6)).toBeGreaterThan(2);
    expect(log.inputOf('settleCompletedJob')).toMatchObject({ amount: 2, result: { depthReached: 6 } });
    expect(savedUpdate(log).creditsCharged).toBe(2);
    expect(outcome).toMatchObject({ status: 'completed', riskLevel: 'LOW', creditsCharged: 2 });
  });
});

describe('screeningWorkflow, failed analysis', () => {
  /** The failed job: the hold released and the mirror failed in one settle, nothing charged or recorded. */
  function expectFailedJob(run: ScreeningRun, input: ScreeningInput, error: { code: string; message: string }): void {
    expect(run.log.names().filter((name) => name !== 'analyzeTarget')).toEqual(['settleFailedJob']);
    expect(savedUpdate(run.log)).toMatchObject({
      requestId: input.requestId,
      status: 'failed',
      response: null,
      fullResponse: null,
      error,
      creditsCharged: 0,
    });
    expect(run.log.count('settleCompletedJob')).toBe(0);
    expect(run.outcome).toEqual({ status: 'failed', responseId: null, riskLevel: null, creditsCharged: 0, error });
    expect(run.jobStatus).toBe('failed');
    expect(run.riskLevel).toBeUndefined();
  }

  test.each([
    { type: 'INVALID_TARGET', code: 'INVALID_TARGET' },
    { type: 'SomethingElse', code: 'ANALYSIS_FAILED' },
  ])('a non-retryable failure of type $type fails the job once with $code', async ({ type, code }) => {
    const input = screeningInput();
    const run = await runScreening(input, async () => {
      throw ApplicationFailure.nonRetryable(`stub says ${type}`, type);
    });

    expect(run.log.count('analyzeTarget')).toBe(1);
    expectFailedJob(run, input, { code, message: `stub says ${type}` });
  });

  // The workflow's analysis policy: 3 attempts, 1 s then 2 s apart (these two tests wait about 3 s each).
  test('a retryable CHAIN_UNAVAILABLE is retried three times, then the job fails with CHAIN_UNAVAILABLE', async () => {
    const input = screeningInput();
    const run = await runScreening(input, async () => {
      throw ApplicationFailure.retryable('node down', 'CHAIN_UNAVAILABLE');
    });

    expect(run.log.count('analyzeTarget')).toBe(3);
    expectFailedJob(run, input, { code: 'CHAIN_UNAVAILABLE', message: 'node down' });
  });

  test(
    'the settle of a failed job carries its owner and hold, ' + 'which the activity checks before releasing',
    async () => {
      const input = screeningInput({ creditsHeld: 4 });
      const run = await runScreening(input, async () => {
        throw ApplicationFailure.nonRetryable('no such transaction', 'TRANSACTION_NOT_FOUND');
      });

      expect(run.log.inputOf('settleFailedJob')).toMatchObject({
        requestId: input.requestId,
        userId: input.userId,
        creditsHeld: 4,
      });
    },
  );

  test(
    "an input the analysis refuses as not the api's (INPUT_NOT_AUTHENTIC) fails the workflow with that code after " +
      'one attempt, and nothing is settled: no hold released, no mirror written, nothing charged',
    async () => {
      const log = callLog();
      testbed.worker.use(
        screeningStubs(log, async () => {
          throw ApplicationFailure.nonRetryable('no hold for this request id, user and amount', 'INPUT_NOT_AUTHENTIC');
        }),
      );
      const input = screeningInput();
      const failure = await testbed.env.client.workflow
        .execute<typeof screeningWorkflow>('screeningWorkflow', {
          taskQueue: testbed.worker.taskQueue,
          workflowId: `screening:${input.requestId}-${++runs}-${testbed.worker.taskQueue}`,
          args: [input],
        })
        .catch((err: unknown) => err);

      expect(failure).toBeInstanceOf(WorkflowFailedError);
      // The analysis is a local activity: its failure reaches the workflow as it is, not wrapped in an
      // ActivityFailure.
      const cause = (failure as WorkflowFailedError).cause;
      expect(cause).toBeInstanceOf(ApplicationFailure);
      expect(cause).toMatchObject({
        type: 'INPUT_NOT_AUTHENTIC',
        message: 'no hold for this request id, user and amount',
      });
      expect(log.names()).toEqual(['analyzeTarget']);
    },
  );

  test('a plain error (a bug, not our vocabulary) is retried like any failure, then ANALYSIS_FAILED', async () => {
    const input = screeningInput();
    const run = await runScreening(input, async () => {
      throw new Error('undefined is not a function');
    });

    expect(run.log.count('analyzeTarget')).toBe(3);
    expectFailedJob(run, input, { code: 'ANALYSIS_FAILED', message: 'undefined is not a function' });
  });
});

describe('queuedJobSweeperWorkflow', () => {
  test(
    'runs one sweep, passing on no input (the thresholds are the worker config), ' + 'and returns the summary',
    async () => {
      const log = callLog();
      const batchSweep = { batchesExamined: 2, batchesStarted: 1 };
      const stubs: StubActivities<QueuedJobActivities & BatchActivities> = {
        sweepQueuedJobs: async () => sweepSummary,
        sweepStalledBatches: async () => batchSweep,
      };
      testbed.worker.use(logged(log, stubs));
      const summary = await testbed.env.client.workflow.execute<typeof queuedJobSweeperWorkflow>(
        'queuedJobSweeperWorkflow',
        {
          taskQueue: testbed.worker.taskQueue,
          workflowId: `queued-job-sweeper-${testbed.worker.taskQueue}`,
          args: [sweepInput],
        },
      );

      // The single jobs first, then the batches left without a workflow.
      expect(summary).toEqual({ ...sweepSummary, ...batchSweep });
      // A schedule (or anyone who can start a workflow) passing thresholds cannot hand them to the sweep.
      expect(log.calls).toEqual([
        { name: 'sweepQueuedJobs', input: undefined },
        { name: 'sweepStalledBatches', input: undefined },
      ]);
    },
  );
});
