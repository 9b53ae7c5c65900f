/**
 * freezeSyncWorkflow on a dev server of its own, with stubbed activities: each configured chain read once, side by
 * side (one EVM network more is data in the input, not another command order), and one chain's failure failing the
 * run only after the other chain has finished.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ListActivities } from '../../src/lists/activities';
import type { FreezeSource, FreezeSyncResult } from '../../src/lists/freezes';
import type { freezeSyncWorkflow } from '../../src/lists/workflows';
import {
  callLog,
  logged,
  type StubActivities,
  type StubbedWorker,
  startStubbedWorker,
  startWorkflowTestEnv,
  workflowBundle,
} from './workflow-test-env';

let env: TestWorkflowEnvironment;
let worker: StubbedWorker;

beforeAll(async () => {
  const [started, bundle] = await Promise.all([startWorkflowTestEnv(), workflowBundle()]);
  env = started;
  worker = await startStubbedWorker(env, bundle, ['syncStablecoinFreezes']);
});

afterAll(async () => {
  await worker?.stop();
  await env?.teardown();
});

let runs = 0;
const start = (sources: FreezeSource[]) =>
  env.client.workflow.start<typeof freezeSyncWorkflow>('freezeSyncWorkflow', {
    taskQueue: worker.taskQueue,
    workflowId: `freeze-sync-${++runs}-${worker.taskQueue}`,
    args: [{ sources }],
  });

const read = (source: FreezeSource): FreezeSyncResult => ({
  source,
  contracts: [
    {
      chain: source,
      token: 'USDT',
      contract: 'c',
      from: '1',
      to: '2',
      windows: 1,
      events: 0,
      changed: 0,
      caughtUp: true,
    },
  ],
});

test('each configured chain, an L2 among them, is read once; the results come in the input’s order', async () => {
  const log = callLog();
  const stubs: StubActivities<ListActivities> = { syncStablecoinFreezes: async ({ source }) => read(source) };
  worker.use(logged(log, stubs));

  const result = await (await start(['ethereum', 'base', 'tron'])).result();

  expect(result).toEqual([read('ethereum'), read('base'), read('tron')]);
  // Side by side: the calls may start in any order.
  expect(log.calls.map((c) => c.input)).toEqual(
    expect.arrayContaining([{ source: 'ethereum' }, { source: 'base' }, { source: 'tron' }]),
  );
  expect(log.calls).toHaveLength(3);
});

test(
  'when one chain fails for good, then the other is ' + 'still read, and the run fails with the chain’s code',
  async () => {
    const log = callLog();
    let ethereumDone = false;
    const stubs: StubActivities<ListActivities> = {
      syncStablecoinFreezes: async ({ source }) => {
        if (source === 'tron') throw ApplicationFailure.nonRetryable('TronGrid refused the key', 'CHAIN_UNAVAILABLE');
        await new Promise((resolve) => setTimeout(resolve, 300));
        ethereumDone = true;
        return read(source);
      },
    };
    worker.use(logged(log, stubs));

    const failure = await (await start(['ethereum', 'tron'])).result().catch((err: unknown) => err);

    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause;
    expect(cause).toBeInstanceOf(ActivityFailure);
    expect((cause as ActivityFailure).cause).toMatchObject({ type: 'CHAIN_UNAVAILABLE' });
    expect(ethereumDone).toBe(true);
    expect(log.count('syncStablecoinFreezes')).toBe(2);
  },
);
