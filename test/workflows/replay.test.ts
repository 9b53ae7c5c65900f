/**
 * Replays every recorded history (test/fixtures/workflow-histories, written by
 * scripts/record-workflow-histories.ts) against the current workflows. A change that would make a workflow
 * already running in production take another path (another activity, another order, a timer fewer) fails here
 * with a nondeterminism error, before it is deployed; such a change ships behind a patch (docs/operations.md,
 * "Patches in workflow code"). The fixtures are never recorded again in place. Needs no server: the replay worker
 * is local.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { allWorkflows } from '../../src/app/workflow-entry';
import { SCENARIOS } from '../../scripts/workflow-history-scenarios';
import { historyFromJson, workflowTypeOf, type History } from './history-json';
import { installTestRuntime, workflowBundle } from './workflow-test-env';

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'workflow-histories');

async function loadHistories(): Promise<{ file: string; history: History }[]> {
  const files = (await readdir(FIXTURES)).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => {
      const json: unknown = JSON.parse(await readFile(path.join(FIXTURES, file), 'utf8'));
      return { file, history: historyFromJson(json) };
    }),
  );
}

test('every exported workflow type has at least one recorded history', async () => {
  const recorded = new Set((await loadHistories()).map(({ history }) => workflowTypeOf(history)));
  const missing = Object.keys(allWorkflows()).filter((type) => !recorded.has(type));

  // A new workflow type needs a scenario in scripts/workflow-history-scenarios.ts, then a run of the recorder.
  expect(missing).toEqual([]);
});

test('every scenario of the recorder has its recorded history', async () => {
  const files = new Set((await loadHistories()).map(({ file }) => file));
  const unrecorded = SCENARIOS.map((s) => `${s.name}.json`).filter((file) => !files.has(file));

  // A new shape (a new scenario) is recorded once: npx tsx scripts/record-workflow-histories.ts <name>.
  expect(unrecorded).toEqual([]);
});

test('every recorded history replays on the current workflows without nondeterminism', async () => {
  installTestRuntime();
  const histories = await loadHistories();
  expect(histories.length).toBeGreaterThan(0);

  const results = Worker.runReplayHistories(
    { workflowBundle: await workflowBundle(), replayName: 'workflow-histories' },
    // Histories carry no workflow id; the file name stands in for it, so a failure names its file.
    histories.map(({ file, history }) => ({ workflowId: file, history })),
  );
  const failures: string[] = [];
  let replayed = 0;
  for await (const result of results) {
    replayed++;
    if (result.error) failures.push(`${result.workflowId}: ${result.error.name}: ${result.error.message}`);
  }

  expect(failures).toEqual([]);
  expect(replayed).toBe(histories.length);
});
