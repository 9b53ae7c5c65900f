import type { Pool } from 'pg';
import { noticeMonitors } from '../../src/lists/notify-monitors';
import { listVersionNoticeWorkflowId } from '../../src/monitors/workflow-ids';
import { connectRecording, type RecordingSocket } from '../../test/helpers/realtime-client';
import type { TestStack } from '../../test/helpers/test-stack';
import type { BenchContext } from '../lib/context';
import type { Figure } from '../lib/report';
import { inFlight } from '../lib/stats';
import { insertTouchingVersion } from './p9-list-update';
import {
  awaitWorkflowBacklog,
  insertMonitors,
  listedTargets,
  type MonitorFleet,
  removeFleet,
  startMonitorWorkflows,
  type Target,
} from './p9-monitor-fleet';

/** The baseline's jobs in flight. */
const PLAIN_CONCURRENCY = 10;
const TIMEOUT_MS = 120_000;

async function until(what: string, done: () => Promise<boolean> | boolean, everyMs = 50): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`P9: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const countOf = async (pool: Pool, sql: string, params: unknown[]): Promise<number> =>
  (await pool.query<{ n: number }>(sql, params)).rows[0]?.n ?? 0;

/** The baseline: one plain screening job of the same address, submit → `completed` seen on the owner's socket. */
async function plainJob(stack: TestStack, key: string, socket: RecordingSocket, target: Target): Promise<void> {
  const res = await stack.http('POST', '/api/v1/kyt/job', { key, body: target });
  if (res.status !== 202) throw new Error(`submit answered ${res.status}: ${JSON.stringify(res.body)}`);
  const requestId: string = res.body.data.request_id;
  const done = await socket.waitFor(
    'job_status_changed',
    (p) => p.request_id === requestId && p.status !== 'queued',
    TIMEOUT_MS,
  );
  if (done.status !== 'completed') throw new Error(`plain job ${requestId} ended ${done.status}`);
}

/**
 * The list update: a version touching the fleet's listed addresses, noticed as a load notices it; resolves when
 * every touched monitor's risk_changed alert is stored and has reached the owner's socket.
 */
async function noticeAndAwaitAlerts(stack: TestStack, ownerId: string, socket: RecordingSocket, fleet: MonitorFleet) {
  const touchedIds = new Set(fleet.touched.map((t) => t.id));
  const arrivals: number[] = [];
  socket.socket.on('risk_changed', (p: { monitorId?: string }) => {
    if (p.monitorId && touchedIds.has(p.monitorId)) arrivals.push(performance.now());
  });
  const version = await insertTouchingVersion(
    stack.pool,
    fleet.touched.map((t) => ({ chain: t.chain, address: t.address })),
  );
  const t0 = performance.now();
  await noticeMonitors(stack.temporal, stack.config.TEMPORAL_TASK_QUEUE, version);
  // The notice ends once it has signalled every touched monitor: the part of the time before any re-screen runs.
  const noticed = stack.temporal.workflow
    .getHandle(listVersionNoticeWorkflowId(version.id))
    .result()
    .then((signalled: number) => ({ signalled, ms: performance.now() - t0 }));
  // Awaited below; a timeout before then must not also leave it rejected unhandled.
  noticed.catch(() => undefined);
  let alertsMs = 0;
  await until('the risk_changed alerts', async () => {
    const stored = await countOf(
      stack.pool,
      `SELECT count(*)::int AS n FROM monitor_alerts WHERE user_id = $1 AND kind = 'risk_changed'`,
      [ownerId],
    );
    alertsMs = performance.now() - t0;
    return stored >= fleet.touched.length;
  });
  await until('the risk_changed socket events', () => arrivals.length >= fleet.touched.length);
  const { signalled, ms: signalledMs } = await noticed;
  return {
    alertsMs,
    socketMs: Math.max(...arrivals) - t0,
    firstMs: Math.min(...arrivals) - t0,
    signalledMs,
    signalled,
    events: arrivals.length,
  };
}

/** Exactly the touched monitors were re-screened, each once, and none of the others was touched at all. */
async function assertOnlyTouchedRescreened(pool: Pool, ownerId: string, fleet: MonitorFleet): Promise<number> {
  const touched = fleet.touched.map((t) => t.address);
  const jobs = await countOf(pool, 'SELECT count(*)::int AS n FROM screening_jobs WHERE user_id = $1', [ownerId]);
  const strays = await countOf(
    pool,
    'SELECT count(*)::int AS n FROM screening_jobs WHERE user_id = $1 AND NOT (target = ANY($2))',
    [ownerId, touched],
  );
  const others = await countOf(
    pool,
    `SELECT count(*)::int AS n FROM monitors m WHERE m.user_id = $1 AND NOT (m.address = ANY($2))
       AND (m.last_request_id IS NOT NULL OR EXISTS (SELECT 1 FROM monitor_alerts a WHERE a.monitor_id = m.id))`,
    [ownerId, touched],
  );
  if (jobs !== touched.length || strays !== 0 || others !== 0) {
    throw new Error(
      `P9: ${jobs} re-screens for ${touched.length} touched monitors (${strays} of other addresses); ` +
        `${others} untouched monitors re-screened or alerted`,
    );
  }
  return jobs;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * P9: a list update touching 100 of 10,000 monitors (BENCH_MONITORS, BENCH_MONITORS_TOUCHED): from the notice's
 * start until every touched monitor's risk_changed alert is stored, and until it reached the owner's socket,
 * beside the same number of plain screening jobs of the same addresses at 10 in flight (submit → completed), half
 * before and half after, with the whole fleet's workflows running throughout.
 */
export async function measureMonitorNotice(ctx: BenchContext): Promise<Figure[]> {
  const { stack, config } = ctx;
  const total = config.BENCH_MONITORS;
  const touchedCount = Math.min(config.BENCH_MONITORS_TOUCHED, total);
  const taskQueue = stack.config.TEMPORAL_TASK_QUEUE;
  // Holds are for the planned crawl depth; credits for several times the re-screens leave no one paused.
  const owner = await stack.createUser({ credits: touchedCount * 10 });
  const plain = await stack.createUser({ credits: touchedCount * 10 });
  const listed = await listedTargets(stack.pool, touchedCount);
  const fleet = await insertMonitors(stack.pool, owner.id, listed, total);
  const [ownerSocket, plainSocket] = await Promise.all([
    connectRecording(stack.api.url, owner.key),
    connectRecording(stack.api.url, plain.key),
  ]);
  try {
    ctx.progress(`P9: starting ${total} monitor workflows (${touchedCount} on listed addresses)`);
    const startMs = await startMonitorWorkflows(stack.temporal, taskQueue, owner.id, fleet);
    const startsEnded = performance.now();
    await awaitWorkflowBacklog(stack.temporal, taskQueue);
    const catchUpMs = performance.now() - startsEnded;
    ctx.progress(
      `P9: ${total} workflows started in ${seconds(startMs)} (${(total / (startMs / 1000)).toFixed(0)}/s), ` +
        `the worker caught up ${seconds(catchUpMs)} later; the notice, between two halves of plain jobs`,
    );
    const first = Math.floor(touchedCount / 2);
    const plainJobs = (from: number, count: number) =>
      inFlight(count, PLAIN_CONCURRENCY, (i) => plainJob(stack, plain.key, plainSocket, listed[from + i]!));
    const plain1 = await plainJobs(0, first);
    const notice = await noticeAndAwaitAlerts(stack, owner.id, ownerSocket, fleet);
    const plain2 = await plainJobs(first, touchedCount - first);
    // Any stray re-screen would have been signalled with the touched ones; a moment lets it show.
    await new Promise((r) => setTimeout(r, 1_000));
    const rescreens = await assertOnlyTouchedRescreened(stack.pool, owner.id, fleet);
    if (notice.signalled !== touchedCount) {
      throw new Error(`P9: the notice signalled ${notice.signalled} monitors, not ${touchedCount}`);
    }
    const baselineMs = plain1.wallMs + plain2.wallMs;
    const what = `list update touching ${touchedCount} of ${total} monitors: notice start →`;
    const versus = `÷ ${touchedCount} plain jobs (same addresses) submit→completed, ${PLAIN_CONCURRENCY} in flight`;
    return [
      {
        id: 'P9',
        figure:
          `${what} all ${touchedCount} risk_changed alerts stored ${versus} ` +
          '(target ≤ 5 s and ≤ 1.2 × the plain jobs)',
        value: notice.alertsMs / 1000,
        baseline: baselineMs / 1000,
        unit: 's',
        note:
          `${rescreens} re-screens, 0 of the other ${total - touchedCount} monitors touched; ` +
          `${total} workflows started in ${seconds(startMs)}, worker caught up ${seconds(catchUpMs)} later`,
      },
      {
        id: 'P9',
        figure: `${what} all ${touchedCount} risk_changed events on the owner's socket ${versus}`,
        value: notice.socketMs / 1000,
        baseline: baselineMs / 1000,
        unit: 's',
        note:
          `${notice.events} events; the notice had signalled them ${seconds(notice.signalledMs)} after its start, ` +
          `the first event came at ${seconds(notice.firstMs)}`,
      },
    ];
  } finally {
    ownerSocket.close();
    plainSocket.close();
    const removeMs = await removeFleet(stack.temporal, stack.pool, owner.id, fleet);
    ctx.progress(`P9: ${total} workflows terminated in ${seconds(removeMs)}, monitors deleted`);
  }
}
