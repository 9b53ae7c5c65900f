import { listOnlyTargets } from '../../lib/list-only-targets';
import { auditBatch, type BatchAnswer, requireBatchPromises, screeningRunsOf } from '../batch-audit';
import type { FaultStack } from '../fault-stack';
import { seconds, sleep, startReport, type ScenarioReport } from '../report';
import { describeRetried, interruptedWorkflowTasks, retriedActivities } from '../retried-activities';

const DEADLINE_MS = 150_000;

async function api(
  stack: FaultStack,
  key: string,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json', ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** Items of the batch finished so far (its item rows follow their jobs' mirror writes). */
async function finishedItems(stack: FaultStack, batchId: string): Promise<number> {
  const { rows } = await stack.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM batch_items WHERE batch_id = $1 AND status IN ('completed', 'failed')`,
    [batchId],
  );
  return rows[0]?.n ?? 0;
}

/**
 * The worker process SIGKILLed while a batch of list-only items runs (30 % finished, its item jobs running as
 * child workflows), then a new worker started and the client's request replayed with its Idempotency-Key: the batch
 * completes, every item exactly once (one screening workflow, one ledger charge, one history entry per request id),
 * no hold left, counts and credits that add up, the balance exact.
 */
export async function batchWorkerKill(stack: FaultStack, options: { items: number }): Promise<ScenarioReport> {
  const report = startReport('batch worker SIGKILL');
  const seed = options.items + 100;
  const user = await stack.createUser({ credits: seed });
  const body = { items: listOnlyTargets(options.items, { referencePrefix: 'fault-batch' }) };
  const headers = { 'Idempotency-Key': `fault-batch-${user.id}` };
  const started = Date.now();

  const submit = await api(stack, user.key, 'POST', '/api/v1/kyt/batch', { body, headers });
  if (submit.status !== 202) {
    report.fail(`batch submit answered ${submit.status}: ${JSON.stringify(submit.body)}`);
    return report.finish();
  }
  const batchId: string = submit.body.data.batch_id;
  report.require(
    submit.body.data.counts.queued === options.items,
    `the batch accepted ${submit.body.data.counts.queued} of ${options.items} items: ` +
      `${JSON.stringify(submit.body.data.counts)}`,
  );

  // The kill lands once 30 % has finished, so items are both behind and ahead of it; not at a quarter, which for 1,000
  // items is where the first run drains its children to continue as new (BATCH_CONTINUE_AS_NEW_AFTER, 250).
  const deadline = Date.now() + DEADLINE_MS;
  while ((await finishedItems(stack, batchId)) < options.items * 0.3 && Date.now() < deadline) await sleep(20);
  const doomed = stack.worker();
  doomed.kill('SIGKILL');
  await doomed.exited;
  const finishedAtKill = await finishedItems(stack, batchId);
  // With no worker nothing moves: the item workflows running now are the ones the kill caught mid-flight.
  const caught = [...(await screeningRunsOf(stack.temporal, user.id, ' AND ExecutionStatus = "Running"')).keys()];
  const restart = Date.now();
  await stack.startWorker();
  const restartMs = Date.now() - restart;

  // The client did not see its answer (say): it sends the same request again, which must find the same batch.
  const replay = await api(stack, user.key, 'POST', '/api/v1/kyt/batch', { body, headers });
  report.require(
    replay.status === 202 &&
      replay.body?.data?.batch_id === batchId &&
      replay.headers.get('idempotent-replayed') === 'true',
    `the replayed request answered ${replay.status} ${replay.body?.data?.batch_id ?? JSON.stringify(replay.body)} ` +
      `(replayed: ${replay.headers.get('idempotent-replayed')}), not the batch ${batchId}`,
  );

  let answer: BatchAnswer | null = null;
  while (Date.now() < deadline) {
    const res = await api(stack, user.key, 'GET', `/api/v1/kyt/batch/${batchId}?limit=1000`);
    if (res.status === 200 && res.body.data.status === 'completed') {
      answer = res.body.data as BatchAnswer;
      break;
    }
    await sleep(250);
  }
  const completedMs = Date.now() - started;
  if (!answer) {
    const res = await api(stack, user.key, 'GET', `/api/v1/kyt/batch/${batchId}?limit=1`);
    report.fail(`the batch did not complete within ${DEADLINE_MS / 1000} s: ${JSON.stringify(res.body?.data?.counts)}`);
    return report.finish();
  }

  const audit = await auditBatch(stack.pool, stack.temporal, { id: user.id, seed }, options.items, answer);
  requireBatchPromises(report, audit);
  const retried = await retriedActivities(
    stack.temporal,
    caught.map((workflowId) => workflowId.slice('screening:'.length)),
  );
  const interrupted = await interruptedWorkflowTasks(stack.temporal, caught);
  const batchRuns: string[] = [];
  for await (const run of stack.temporal.workflow.list({ query: `WorkflowId = "batch:${batchId}"` }))
    batchRuns.push(run.status.name);
  report.figure('finished/in-flight-at-kill', `${finishedAtKill}/${caught.length}`);
  report.figure('retried', describeRetried(retried));
  report.figure('interrupted-workflow-tasks', interrupted);
  report.figure('batch-runs', batchRuns.length);
  report.figure('restart→polling', seconds(restartMs));
  report.figure('submit→completed', seconds(completedMs));
  report.require(
    batchRuns.filter((s) => s === 'COMPLETED').length === 1 && batchRuns.every((s) => s !== 'RUNNING'),
    `batch workflow runs: ${batchRuns.join(', ')} (want exactly one COMPLETED, none running)`,
  );
  // Without item jobs caught mid-flight the kill landed between them and proved less than it claims: their steps
  // (local activities in the item's workflow task, or activities) must have run again after the kill.
  report.require(
    caught.length > 0 && finishedAtKill < options.items,
    `the kill caught ${caught.length} item jobs running with ${finishedAtKill} of ${options.items} finished`,
  );
  report.require(
    interrupted + Object.values(retried).reduce((a, b) => a + b, 0) > 0,
    'no item step was interrupted by the kill (no timed-out workflow task, no activity attempt 2)',
  );
  return report.finish();
}
