import { connectRecording, type RecordingSocket } from '../../test/helpers/realtime-client';
import type { TestStack } from '../../test/helpers/test-stack';
import type { BenchContext } from '../lib/context';
import { submitAndAwaitCompletion } from '../lib/jobs';
import { listOnlyTargets, type ListOnlyTarget } from '../lib/list-only-targets';
import type { Figure } from '../lib/report';
import { inFlight, percentile } from '../lib/stats';

const WARM_UP = 20;
/**
 * The singles' clients start this far apart rather than all at once, as real clients do (and as the runs in
 * docs/benchmarks.md were measured; the pool deadlock that first made it necessary is fixed in holdAndRecord).
 */
const CLIENT_RAMP_MS = 25;
const POLL_EVERY_MS = 100;
const DEADLINE_MS = 15 * 60_000;

/** One side's run: from its first request (client clock) to its last job's completed_at (the mirror write). */
interface SideRun {
  items: number;
  wallMs: number;
  requestIds: string[];
}

/** When the last of these jobs completed, and how many completed; every one must have. */
async function lastCompletion(stack: TestStack, requestIds: string[]): Promise<{ last: Date; failed: number }> {
  const { rows } = await stack.pool.query<{ last: Date; done: number; failed: number }>(
    `SELECT max(completed_at) AS last, count(*) FILTER (WHERE status = 'completed')::int AS done,
       count(*) FILTER (WHERE status = 'failed')::int AS failed
     FROM screening_jobs WHERE request_id = ANY($1::uuid[])`,
    [requestIds],
  );
  const row = rows[0];
  if (!row || row.done !== requestIds.length)
    throw new Error(`${requestIds.length - (row?.done ?? 0)} of ${requestIds.length} jobs did not complete`);
  return { last: row.last, failed: row.failed };
}

/**
 * The baseline: the targets as single POST /api/v1/kyt/job requests by `concurrency` clients, each submitting its
 * next job once its last one completed (job_status_changed on the owner's socket, as P1), so `concurrency` jobs
 * are in flight at any time, the batch's bound.
 */
async function runSingles(
  stack: TestStack,
  key: string,
  socket: RecordingSocket,
  targets: ListOnlyTarget[],
  concurrency: number,
  submitMs: number[],
): Promise<SideRun> {
  const requestIds: string[] = [];
  const t0 = Date.now();
  await inFlight(targets.length, concurrency, async (i) => {
    if (i < concurrency) await new Promise((r) => setTimeout(r, i * CLIENT_RAMP_MS));
    const job = await submitAndAwaitCompletion(stack, key, socket, targets[i] as ListOnlyTarget);
    requestIds.push(job.requestId);
    submitMs.push(job.submitMs);
  });
  const { last } = await lastCompletion(stack, requestIds);
  return { items: targets.length, wallMs: last.getTime() - t0, requestIds };
}

/** The targets as one POST /api/v1/kyt/batch, followed in the database until every item's job has completed. */
async function runBatch(
  stack: TestStack,
  key: string,
  targets: ListOnlyTarget[],
): Promise<SideRun & { submitMs: number; batchCompletedMs: number }> {
  const t0 = Date.now();
  const res = await stack.http('POST', '/api/v1/kyt/batch', { key, body: { items: targets } });
  const submitMs = Date.now() - t0;
  if (res.status !== 202) throw new Error(`batch submit answered ${res.status}: ${JSON.stringify(res.body)}`);
  const { batch_id: batchId, counts } = res.body.data;
  if (counts.total !== targets.length || counts.invalid !== 0 || counts.refused !== 0)
    throw new Error(`batch of ${targets.length} accepted only part: ${JSON.stringify(counts)}`);
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const { rows } = await stack.pool.query<{ status: string; completed_at: Date | null }>(
      'SELECT status, completed_at FROM screening_batches WHERE id = $1',
      [batchId],
    );
    const batch = rows[0];
    if (batch?.status === 'completed' && batch.completed_at) {
      const { rows: jobs } = await stack.pool.query<{ request_id: string }>(
        'SELECT request_id FROM screening_jobs WHERE batch_id = $1',
        [batchId],
      );
      const requestIds = jobs.map((j) => j.request_id);
      if (requestIds.length !== targets.length)
        throw new Error(`batch ${batchId} has ${requestIds.length} jobs for ${targets.length} items`);
      const { last, failed } = await lastCompletion(stack, requestIds);
      if (failed > 0) throw new Error(`${failed} items of batch ${batchId} failed`);
      return {
        items: targets.length,
        wallMs: last.getTime() - t0,
        requestIds,
        submitMs,
        batchCompletedMs: batch.completed_at.getTime() - t0,
      };
    }
    if (Date.now() > deadline) throw new Error(`batch ${batchId} not completed after ${DEADLINE_MS / 60_000} min`);
    await new Promise((r) => setTimeout(r, POLL_EVERY_MS));
  }
}

/** Every job of these runs charged exactly once (one consume row per request id), no hold left. */
async function chargedOnce(stack: TestStack, requestIds: string[]): Promise<number> {
  const { rows } = await stack.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM screening_jobs j
     WHERE j.request_id = ANY($1::uuid[]) AND j.status = 'completed' AND j.credits_charged > 0
       AND (SELECT count(*) FROM credit_transactions t
            WHERE t.idempotency_key = 'screening:' || j.request_id AND t.kind = 'consume') = 1
       AND NOT EXISTS (SELECT 1 FROM credit_holds h WHERE h.hold_key = j.request_id::text)`,
    [requestIds],
  );
  return rows[0]?.n ?? 0;
}

const rate = (run: { items: number; wallMs: number }) => run.items / (run.wallMs / 1000);

/**
 * P10: items per second of one BENCH_BATCH_ITEMS-item list-only batch (bitcoin KYA: no chain node on the bench
 * stack, a quarter of the targets listed) ÷ the same targets as single jobs, BATCH_CONCURRENCY of them in flight
 * (the batch's own bound). Each side is timed from its first request to its last job's completion. The singles run in
 * two halves, one before and one after the batch, so a drift in the machine's load weighs on both sides.
 */
export async function measureBatchThroughput(ctx: BenchContext): Promise<Figure[]> {
  const { stack, config } = ctx;
  const items = config.BENCH_BATCH_ITEMS;
  const concurrency = stack.config.BATCH_CONCURRENCY;
  const targets = listOnlyTargets(items, { referencePrefix: 'p10' });
  const batchUser = await stack.createUser({ credits: items + WARM_UP });
  const singlesUser = await stack.createUser({ credits: items + WARM_UP });
  const socket = await connectRecording(stack.api.url, singlesUser.key);
  try {
    const warm = listOnlyTargets(WARM_UP, { referencePrefix: 'p10-warm-up' });
    await runBatch(stack, batchUser.key, warm);
    await runSingles(stack, singlesUser.key, socket, warm, concurrency, []);

    ctx.progress(
      `P10: a ${items}-item batch and the same ${items} targets as single jobs, ${concurrency} in flight ` +
        '(singles: half before, half after the batch)',
    );
    const submitMs: number[] = [];
    const half = Math.floor(items / 2);
    const before = await runSingles(stack, singlesUser.key, socket, targets.slice(0, half), concurrency, submitMs);
    const batch = await runBatch(stack, batchUser.key, targets);
    const after = await runSingles(stack, singlesUser.key, socket, targets.slice(half), concurrency, submitMs);
    const singles = { items, wallMs: before.wallMs + after.wallMs };

    const charged =
      (await chargedOnce(stack, batch.requestIds)) +
      (await chargedOnce(stack, [...before.requestIds, ...after.requestIds]));
    ctx.progress(
      `P10: batch ${rate(batch).toFixed(1)} items/s (${(batch.wallMs / 1000).toFixed(1)} s), singles ` +
        `${rate(singles).toFixed(1)} jobs/s (${(before.wallMs / 1000).toFixed(1)} + ` +
        `${(after.wallMs / 1000).toFixed(1)} s)`,
    );
    return [
      {
        id: 'P10',
        figure:
          `${items}-item list-only batch, items/s from submit to its last item completed ÷ the same targets as ` +
          `single jobs/s, ${concurrency} in flight (target ≥ 1.5)`,
        value: rate(batch),
        baseline: rate(singles),
        unit: '/s',
        note:
          `batch ${(batch.wallMs / 1000).toFixed(1)} s (submit 202 in ${batch.submitMs} ms, batch completed at ` +
          `${(batch.batchCompletedMs / 1000).toFixed(1)} s), singles ${(singles.wallMs / 1000).toFixed(1)} s ` +
          `(submit 202 p50 ${percentile(submitMs, 50).toFixed(0)} ms); ${charged} of ${2 * items} jobs charged once`,
      },
    ];
  } finally {
    socket.close();
  }
}
