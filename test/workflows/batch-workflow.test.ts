/**
 * batchScreeningWorkflow on a dev server of its own, with stubbed activities and the real batchItemScreeningWorkflow
 * as its children: bounded concurrency, continue-as-new with every item started exactly once, and items whose job was
 * started before (an earlier run of the batch) followed instead of started again.
 */
import { randomUUID } from 'node:crypto';
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import type { BatchWorkflowInput } from '../../src/batches/workflow-types';
import type { batchScreeningWorkflow } from '../../src/batches/workflows';
import type { screeningWorkflow } from '../../src/screening/workflows';
import { batchStubs, batchWorkflowInput, screeningInput, analysisResult } from './workflow-samples';
import type { History } from './history-json';
import { callLog, logged, useStubbedWorker } from './workflow-test-env';

const ACTIVITIES = [
  'checkBatchRun',
  'loadBatchItems',
  'settleBatchItem',
  'publishBatchProgress',
  'completeBatch',
  'analyzeTarget',
  'settleCompletedJob',
];

const testbed = useStubbedWorker(ACTIVITIES);

interface Run {
  runId: string;
  /** Workflow ids of the children this run started, in order. */
  children: string[];
  continuedAsNew: boolean;
}

/** Every run of the batch workflow, from the first, following continue-as-new. */
async function runsOf(workflowId: string, firstRunId: string): Promise<Run[]> {
  const runs: Run[] = [];
  let runId: string | undefined = firstRunId;
  while (runId) {
    const history: History = await testbed.env.client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    const children = events
      .map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId)
      .filter((id): id is string => typeof id === 'string');
    const last = events[events.length - 1];
    const next: string | undefined =
      last?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    runs.push({ runId, children, continuedAsNew: next !== undefined });
    runId = next;
  }
  return runs;
}

/** analyzeTarget that records how many analyses run at once. */
function concurrencyProbe(): { peak(): number; analyze: () => Promise<unknown> } {
  let active = 0;
  let peak = 0;
  return {
    peak: () => peak,
    analyze: async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, 30));
      active--;
      return analysisResult({ depthReached: 1, riskLevel: 'LOW' });
    },
  };
}

/** The worker's BATCH_CONCURRENCY and BATCH_CONTINUE_AS_NEW_AFTER in these tests. */
const CONFIGURED = { concurrency: 4, continueAsNewAfter: 250 };

/** The first activity of a run, as the worker answers it for a genuine batch: the input clamped to its config. */
const checkBatchRun = async (input: BatchWorkflowInput) => ({
  concurrency: Math.min(input.concurrency, CONFIGURED.concurrency),
  continueAsNewAfter: Math.min(input.continueAsNewAfter, CONFIGURED.continueAsNewAfter),
});

async function runBatch(
  count: number,
  overrides: { concurrency: number; continueAsNewAfter: number },
  settle?: (requestId: string) => Promise<'finished' | 'running'>,
  before?: (batch: ReturnType<typeof batchStubs>) => Promise<void>,
) {
  const prefix = `${randomUUID()}-`;
  const batch = batchStubs(count, { prefix, settle });
  const probe = concurrencyProbe();
  const log = callLog();
  testbed.worker.use(logged(log, { ...batch.stubs, checkBatchRun, analyzeTarget: probe.analyze }));
  await before?.(batch);
  const workflowId = `batch:${randomUUID()}`;
  const handle = await testbed.env.client.workflow.start<typeof batchScreeningWorkflow>('batchScreeningWorkflow', {
    taskQueue: testbed.worker.taskQueue,
    workflowId,
    args: [batchWorkflowInput({ batchId: workflowId, ...overrides })],
  });
  const outcome = await handle.result();
  const runs = await runsOf(workflowId, handle.firstExecutionRunId);
  return { outcome, runs, log, batch, probe };
}

describe('batchScreeningWorkflow', () => {
  test(
    'when 12 items run with concurrency 3 and continue-as-new after 5 starts, then it takes 3 runs, ' +
      'starts every item exactly once, never runs more than 3 at a time, and completes the batch',
    async () => {
      const { outcome, runs, log, batch, probe } = await runBatch(12, { concurrency: 3, continueAsNewAfter: 5 });

      expect(runs.map((r) => r.continuedAsNew)).toEqual([true, true, false]);
      expect(runs.map((r) => r.children.length)).toEqual([5, 5, 2]);
      // Each run (the first and each continued one) checked its input first.
      expect(log.count('checkBatchRun')).toBe(3);
      expect(log.names()[0]).toBe('checkBatchRun');
      const started = runs.flatMap((r) => r.children);
      expect(started).toEqual(Array.from({ length: 12 }, (_, i) => `screening:${batch.requestId(i)}`));
      // One analysis per item: no child was started twice, none lost across the runs.
      const analysed = log.calls.filter((c) => c.name === 'analyzeTarget').map((c) => (c.input as any).requestId);
      expect(analysed.sort()).toEqual(Array.from({ length: 12 }, (_, i) => batch.requestId(i)).sort());
      expect(probe.peak()).toBeLessThanOrEqual(3);
      expect(probe.peak()).toBeGreaterThan(1);
      expect(batch.queued.size).toBe(0);
      expect(log.count('completeBatch')).toBe(1);
      expect(outcome).toEqual(expect.objectContaining({ status: 'completed', started: 2 }));
      // Coalesced: nowhere near one progress notice per item (one forced at each continue-as-new at most here).
      expect(log.count('publishBatchProgress')).toBeLessThan(6);
    },
  );

  test(
    'when an item was already started by an earlier run of the batch, then the child start is refused, the item ' +
      'is followed until it finished instead of analysed again, and the batch completes',
    async () => {
      const settled: string[] = [];
      let asked = 0;
      const settle = async (requestId: string) => {
        settled.push(requestId);
        // Still running the first time it is asked, finished the second.
        return ++asked === 1 ? 'running' : 'finished';
      };
      const { runs, log, batch } = await runBatch(
        4,
        { concurrency: 2, continueAsNewAfter: 250 },
        settle,
        async (prepared) => {
          // What a run before a restart did: item 1's job workflow started (and ran), its mirror still says queued.
          await testbed.env.client.workflow.execute<typeof screeningWorkflow>('screeningWorkflow', {
            taskQueue: testbed.worker.taskQueue,
            workflowId: `screening:${prepared.requestId(1)}`,
            args: [screeningInput({ requestId: prepared.requestId(1) })],
          });
          prepared.queued.add(1);
        },
      );

      expect(settled).toEqual([batch.requestId(1), batch.requestId(1)]);
      const analysed = log.calls.filter((c) => c.name === 'analyzeTarget').map((c) => (c.input as any).requestId);
      // Item 1 was analysed once, by its first start; the batch analysed the other three.
      expect(analysed.filter((id) => id === batch.requestId(1))).toHaveLength(1);
      expect(analysed).toHaveLength(4);
      expect(runs).toHaveLength(1);
      expect(batch.queued.size).toBe(0);
      expect(log.count('completeBatch')).toBe(1);
    },
  );

  test(
    'when the input asks for more items at once than the worker is configured for, then the run is held to the ' +
      "worker's figures (what checkBatchRun answers), not the input's",
    async () => {
      const { runs, probe } = await runBatch(10, { concurrency: 1_000, continueAsNewAfter: 1_000_000 });

      expect(runs).toHaveLength(1);
      expect(probe.peak()).toBeLessThanOrEqual(CONFIGURED.concurrency);
      expect(probe.peak()).toBeGreaterThan(1);
    },
  );

  test(
    'when the first check refuses the input (INPUT_NOT_AUTHENTIC: no such batch, or not this workflow), then the ' +
      'run loads, starts and settles nothing and fails with that code',
    async () => {
      const batch = batchStubs(3, { prefix: `${randomUUID()}-` });
      const log = callLog();
      testbed.worker.use(
        logged(log, {
          ...batch.stubs,
          checkBatchRun: async () => {
            throw ApplicationFailure.nonRetryable('no batch of this user under this batch id', 'INPUT_NOT_AUTHENTIC');
          },
        }),
      );
      const workflowId = `batch:${randomUUID()}`;
      const failure = await testbed.env.client.workflow
        .execute<typeof batchScreeningWorkflow>('batchScreeningWorkflow', {
          taskQueue: testbed.worker.taskQueue,
          workflowId,
          args: [batchWorkflowInput({ batchId: randomUUID() })],
        })
        .catch((err: unknown) => err);

      expect(failure).toBeInstanceOf(WorkflowFailedError);
      const cause = (failure as WorkflowFailedError).cause;
      expect(cause).toBeInstanceOf(ActivityFailure);
      expect((cause as ActivityFailure).cause).toMatchObject({ type: 'INPUT_NOT_AUTHENTIC' });
      expect(log.names()).toEqual(['checkBatchRun']);
      expect(
        (await runsOf(workflowId, (await testbed.env.client.workflow.getHandle(workflowId).describe()).runId))[0]
          ?.children,
      ).toEqual([]);
    },
  );
});
