/**
 * Runs the real workflows (src/app/workflow-entry.ts) on a Temporal dev server of their own, with stubbed activities:
 * no Postgres, no chain, no provider. Used by the fast workflow tests and by scripts/record-workflow-histories.ts.
 */
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { resolveTemporalCli } from '../../src/platform/dev-services/temporal-cli';
import { createLogger } from '../../src/platform/logging/logger';
import { ALL_SEARCH_ATTRIBUTES } from '../../src/platform/temporal/search-attributes';
import { installTemporalRuntime } from '../../src/platform/temporal/temporal-runtime';
import { runLogEnabled, testRunLogger } from '../helpers/run-log';
import { workflowBundleOptions } from '../../src/app/workflow-entry';

const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * The process's Temporal runtime as test-stack.ts installs it (the first install wins, whichever file runs first):
 * under jest the SDK's lines (the stubs' failures, replay errors) go to the run's log, not the console.
 */
export function installTestRuntime(): void {
  installTemporalRuntime('warn', runLogEnabled() ? { log: testRunLogger({}, 'info') } : {});
}

/**
 * Outside jest (scripts/record-workflow-histories.ts): `temporal server start-dev` from the CLI the project uses (no
 * download: there may be no network), with the search attributes the workflows upsert registered; an unregistered one
 * would fail the workflow task.
 */
export async function startWorkflowTestEnv(): Promise<TestWorkflowEnvironment> {
  installTestRuntime();
  // Under jest the global set-up's dev server (search attributes registered) serves every file: one server per
  // run instead of one per file. Each file's worker has a task queue of its own, so files cannot meet.
  const shared = process.env.TEST_TEMPORAL_ADDRESS;
  if (shared) return TestWorkflowEnvironment.createFromExistingServer({ address: shared });
  const cliPath = resolveTemporalCli(process.env.TEMPORAL_CLI_PATH, createLogger('warn'));
  if (!cliPath) {
    throw new Error('no Temporal CLI: set TEMPORAL_CLI_PATH or build it (src/platform/dev-services/temporal-cli.ts)');
  }
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cliPath },
      ip: '127.0.0.1',
      ui: false,
      searchAttributes: ALL_SEARCH_ATTRIBUTES,
      extraArgs: ['--output', 'none'],
      log: { format: 'pretty', level: 'error' },
    },
  });
}

/**
 * The workflows bundled with the worker's interceptors, as production runs them. Under jest the global setup
 * has bundled the current code already (TEST_WORKFLOW_BUNDLE), which saves each file several seconds.
 */
export async function workflowBundle(): Promise<WorkflowBundleOption> {
  const prebuilt = process.env.TEST_WORKFLOW_BUNDLE;
  if (prebuilt) return { codePath: prebuilt };
  const { code } = await bundleWorkflowCode({
    ...workflowBundleOptions(),
    logger: silent,
  });
  return { code };
}

/**
 * One worker for a whole test file (loading the bundle into a worker takes a while), serving a task queue of its
 * own. Its activities call whichever stubs the running test installed with `use`; tests run one at a time.
 */
export interface StubbedWorker {
  taskQueue: string;
  use(stubs: object): void;
  stop(): Promise<void>;
}

export async function startStubbedWorker(
  env: TestWorkflowEnvironment,
  bundle: WorkflowBundleOption,
  activityNames: readonly string[],
): Promise<StubbedWorker> {
  let current: Record<string, (input: unknown) => Promise<unknown>> = {};
  const activities = Object.fromEntries(
    activityNames.map((name) => [
      name,
      async (input: unknown) => {
        const stub = current[name];
        if (!stub) throw ApplicationFailure.nonRetryable(`the test installed no stub for ${name}`, 'NoStub');
        return stub(input);
      },
    ]),
  );
  const taskQueue = `wf-test-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: bundle,
    activities,
  });
  const running = worker.run();
  return {
    taskQueue,
    use: (stubs) => {
      current = stubs as typeof current;
    },
    stop: async () => {
      worker.shutdown();
      await running;
    },
  };
}

/** Every activity call, in order, for assertions on what a workflow did and in which order. */
export interface CallLog {
  calls: { name: string; input: unknown }[];
  names(): string[];
  inputOf(name: string): unknown;
  count(name: string): number;
}

export function callLog(): CallLog {
  const calls: { name: string; input: unknown }[] = [];
  return {
    calls,
    names: () => calls.map((c) => c.name),
    inputOf: (name) => calls.find((c) => c.name === name)?.input,
    count: (name) => calls.filter((c) => c.name === name).length,
  };
}

/** Wraps stubs so each call is logged (name and its one argument) before the stub runs. */
export function logged<T extends object>(log: CallLog, stubs: T): T {
  const wrapped: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const [name, stub] of Object.entries(stubs) as [string, (input: unknown) => Promise<unknown>][]) {
    wrapped[name] = async (input) => {
      log.calls.push({ name, input });
      return stub(input);
    };
  }
  return wrapped as T;
}

/** Activities with the real names and inputs; results are whatever the workflow under test needs. */
export type StubActivities<T> = {
  [K in keyof T]?: T[K] extends (input: infer I) => Promise<unknown> ? (input: I) => Promise<unknown> : never;
};

/**
 * A test file's dev server and one stubbed worker for the activity names given, started before its tests and
 * stopped after them. The returned object is filled in by beforeAll: read its fields inside tests only.
 */
export function useStubbedWorker(activityNames: readonly string[]): {
  env: TestWorkflowEnvironment;
  worker: StubbedWorker;
} {
  const shared = {} as { env: TestWorkflowEnvironment; worker: StubbedWorker };
  beforeAll(async () => {
    const [started, bundle] = await Promise.all([startWorkflowTestEnv(), workflowBundle()]);
    shared.env = started;
    shared.worker = await startStubbedWorker(started, bundle, activityNames);
  });
  afterAll(async () => {
    await shared.worker?.stop();
    await shared.env?.teardown();
  });
  return shared;
}
