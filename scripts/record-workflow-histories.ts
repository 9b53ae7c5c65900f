/**
 * Records the event history of each scenario of scripts/workflow-history-scenarios.ts that has none yet into
 * test/fixtures/workflow-histories/<name>.json, by running the current workflows on a local dev server with stubbed
 * activities. test/workflows/replay.test.ts replays every one of them against the workflows of every later change:
 * a change that would make a workflow already running take another path fails there.
 *
 * A fixture is never rewritten in place: it is what the replay test holds later code to, and a history recorded
 * again by the changed code would hold it to nothing. So this script only adds. A new workflow type, or a new
 * shape of an existing one (a patch's new branch), is a new scenario under a new name; then run
 * `npx tsx scripts/record-workflow-histories.ts` (every scenario without a fixture) or name the new ones
 * (`… record-workflow-histories.ts monitor-stopped`). Naming a scenario whose fixture exists is refused. A fixture is
 * deleted only when the patch whose old branch it replays is folded (docs/operations.md, "Patches in workflow code").
 */
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { allWorkflows } from '../src/app/workflow-entry';
import { installTemporalRuntime } from '../src/platform/temporal/temporal-runtime';
import { historyToJson } from '../test/workflows/history-json';
import {
  callLog,
  logged,
  startStubbedWorker,
  startWorkflowTestEnv,
  workflowBundle,
} from '../test/workflows/workflow-test-env';
import { SCENARIOS, type Scenario } from './workflow-history-scenarios';

const FIXTURES = path.resolve(__dirname, '..', 'test', 'fixtures', 'workflow-histories');

const fixturePath = (scenario: Scenario) => path.join(FIXTURES, `${scenario.name}.json`);
const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/** The scenarios to record now: those named (each must be new), else every one without a fixture. */
async function scenariosToRecord(named: string[]): Promise<Scenario[]> {
  const workflows = allWorkflows();
  const missing = Object.keys(workflows).filter((type) => !SCENARIOS.some((s) => s.workflowType === type));
  if (missing.length)
    throw new Error(`no scenario records ${missing.join(', ')}: add one to workflow-history-scenarios.ts`);
  const strays = SCENARIOS.filter((s) => !workflows[s.workflowType]).map((s) => `${s.name} (${s.workflowType})`);
  if (strays.length) throw new Error(`no feature exports the workflow of ${strays.join(', ')}`);
  const unknown = named.filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length) throw new Error(`no scenario named ${unknown.join(', ')}`);
  const recorded = new Set<string>();
  for (const s of SCENARIOS) if (await exists(fixturePath(s))) recorded.add(s.name);
  const again = named.filter((name) => recorded.has(name));
  if (again.length) {
    throw new Error(
      `${again.join(', ')} recorded already: a fixture is never rewritten in place (a new shape is a new scenario)`,
    );
  }
  return SCENARIOS.filter((s) => (named.length ? named.includes(s.name) : !recorded.has(s.name)));
}

async function main(): Promise<void> {
  const scenarios = await scenariosToRecord(process.argv.slice(2));
  if (scenarios.length === 0) {
    console.log('every scenario has its fixture: nothing to record');
    return;
  }
  // The failures the scenarios stage would each print a warning with a stack: errors only.
  installTemporalRuntime('error');
  const activityNames = [...new Set(scenarios.flatMap((s) => Object.keys(s.stubs)))];
  const [env, bundle] = await Promise.all([startWorkflowTestEnv(), workflowBundle()]);
  const worker = await startStubbedWorker(env, bundle, activityNames);
  try {
    await mkdir(FIXTURES, { recursive: true });
    for (const scenario of scenarios) {
      const log = callLog();
      worker.use(logged(log, scenario.stubs));
      await scenario.prepare?.(env.client, worker.taskQueue);
      const handle = await env.client.workflow.start(scenario.workflowType, {
        taskQueue: worker.taskQueue,
        workflowId: `${scenario.name}-${worker.taskQueue}`,
        args: scenario.input === undefined ? [] : [scenario.input],
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
      // 'wx': never over a file that appeared meanwhile.
      await writeFile(fixturePath(scenario), historyToJson(history), { flag: 'wx' });
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
