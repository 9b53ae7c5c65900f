/**
 * Replays every recorded history (test/fixtures/workflow-histories, written by
 * scripts/record-workflow-histories.ts) against the current workflows. A change that would make a workflow
 * already running in production take another path (another activity, another order, a timer fewer) fails here
 * with a nondeterminism error, before it is deployed. Needs no server: the replay worker is local.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import * as workflows from '../../workflows';
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
  const missing = Object.keys(workflows).filter((type) => !recorded.has(type));

  // A new workflow type needs a scenario in scripts/record-workflow-histories.ts, then a run of it.
  expect(missing).toEqual([]);
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
