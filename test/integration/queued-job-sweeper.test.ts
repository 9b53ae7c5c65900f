import { randomUUID } from 'node:crypto';
import { completedMirrorWrite, settleCompletedJob } from '../../src/screening/settle-job';
import { NativeConnection } from '@temporalio/worker';
import { buildActivities, createWorker } from '../../src/app/worker-runtime';
import { createMetricsRegistry } from '../../src/platform/metrics/metrics-registry';
import { ensureQueuedJobSweeper } from '../../src/screening/queued-job-sweeper';
import { createScreeningWorkflowStarter } from '../../src/screening/screening-workflow-starter';
import { createLogger } from '../../src/platform/logging/logger';
import { jobCost, deepestAffordableDepth, MINIMUM_CHARGE } from '../../src/screening/pricing';
import type { BatchSweepSummary } from '../../src/batches/workflow-types';
import type { QueuedJobSweepSummary, ScreeningInput } from '../../src/screening/workflow-types';
import { screeningWorkflowId, queuedJobSweeperScheduleId } from '../../src/screening/workflow-ids';
import { changedSeries, scrape } from '../helpers/prometheus';
import { pollUntilDone, startTestStack, type TestStack } from '../helpers/test-stack';

// Reference-data-only bitcoin KYA: no chain node needed, completes in milliseconds, costs 1 credit.
const TARGET = '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h';
// Thresholds in hours, from the worker's config: other test files' jobs in the shared database are minutes old, so
// only this file's deliberately aged jobs qualify and the sweep summaries can be asserted exactly.
const SWEEPER_ENV = {
  QUEUED_JOB_RESTART_AFTER_SECONDS: String(5 * 3600),
  QUEUED_JOB_ABANDON_AFTER_SECONDS: String(10 * 3600),
};
// The sweep also looks at batches left without a workflow (none here: batch-screening.test.ts tests that part).
const NOTHING: QueuedJobSweepSummary & BatchSweepSummary = {
  examined: 0,
  restarted: 0,
  running: 0,
  released: 0,
  repaired: 0,
  left: 0,
  batchesExamined: 0,
  batchesStarted: 0,
};

describe('the queued-job sweeper: nothing stays queued with credits held', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ env: SWEEPER_ENV });
  });
  afterAll(async () => {
    await stack.stop();
  });

  /**
   * What the api commits before it starts the workflow (credits held + job row in one transaction), with
   * the process then dying: no workflow is ever started. The job is aged so the sweep finds it.
   */
  async function commitWithoutWorkflow(
    userId: string,
    ageHours: number,
    httpRequestId?: string,
  ): Promise<ScreeningInput> {
    const requestId = randomUUID();
    const client = await stack.pool.connect();
    let input: ScreeningInput;
    try {
      await client.query('BEGIN');
      const held = await stack.stores.credits.reserve(userId, requestId, MINIMUM_CHARGE, jobCost(3), client);
      input = {
        requestId,
        userId,
        apiType: 'KYA',
        chain: 'bitcoin',
        target: TARGET,
        crawlTimeoutMs: 8000,
        maxDepth: deepestAffordableDepth(held, 3),
        creditsHeld: held,
        heartbeatTimeoutMs: 10_000,
        referenceId: null,
      };
      await stack.stores.jobs.insertQueued({ ...input, httpRequestId }, client);
      await client.query(
        `UPDATE screening_jobs SET created_at = now() - make_interval(hours => $2) WHERE request_id = $1`,
        [requestId, ageHours],
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    return input;
  }

  /** One sweep, as the schedule runs it (no argument), or with whatever `args` a caller sends. */
  /**
   * A worker on a task queue of its own whose settle charges and records the history entry but reports the mirror write
   * done without making it: a workflow it runs completes (charged, history entry recorded) while the job's row stays
   * queued.
   */
  async function startLossyWorker(): Promise<{ taskQueue: string; stop(): Promise<void> }> {
    const config = { ...stack.config, TEMPORAL_TASK_QUEUE: `lossy-${randomUUID()}` };
    const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS as string });
    const activities = buildActivities({
      config,
      pool: stack.pool,
      temporal: stack.temporal,
      metrics: createMetricsRegistry(),
    });
    const worker = await createWorker({
      connection,
      config,
      activities: {
        ...activities,
        // The real settle (charge and history entry in one transaction) over a mirror whose write never lands.
        settleCompletedJob: async (settlement) => {
          const lostMirror = { applyUpdate: async () => null };
          const { credits, history } = stack.stores;
          await settleCompletedJob({ pool: stack.pool, credits, history, jobs: lostMirror }, settlement);
          return { applied: true, mirrorWrite: completedMirrorWrite(settlement) };
        },
      },
      workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE,
    });
    const running = worker.run();
    return {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      async stop() {
        worker.shutdown();
        await running;
        await connection.close();
      },
    };
  }

  const sweep = (args: unknown[] = []) =>
    stack.temporal.workflow.execute('queuedJobSweeperWorkflow', {
      taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
      workflowId: `sweep-test-${randomUUID()}`,
      args,
    }) as Promise<QueuedJobSweepSummary>;

  const jobRow = async (requestId: string) =>
    (
      await stack.pool.query('SELECT status, error, credits_charged FROM screening_jobs WHERE request_id = $1', [
        requestId,
      ])
    ).rows[0];
  const ledger = async (requestId: string) =>
    (
      await stack.pool.query(`SELECT kind, amount FROM credit_transactions WHERE idempotency_key = $1`, [
        `screening:${requestId}`,
      ])
    ).rows;
  const holds = async (requestId: string) =>
    Number(
      (await stack.pool.query('SELECT count(*) FROM credit_holds WHERE hold_key = $1', [requestId])).rows[0].count,
    );

  test(
    'a job whose api died after the commit is started, completes and is charged once; ' +
      'a second sweep changes nothing',
    async () => {
      const user = await stack.createUser({ credits: 10 });
      const submitRequestId = `submit-${randomUUID()}`;
      const orphan = await commitWithoutWorkflow(user.id, 6, submitRequestId);
      const fresh = await commitWithoutWorkflow(user.id, 0);
      expect((await stack.http('GET', '/api/v1/credits/balance', { key: user.key })).body.data).toMatchObject({
        balance: 10,
        reserved: orphan.creditsHeld + fresh.creditsHeld,
      });

      expect(await sweep()).toEqual({ ...NOTHING, examined: 1, restarted: 1 });
      const done = await pollUntilDone(stack, user.key, orphan.requestId, 30_000);
      expect(done.data).toMatchObject({ status: 'completed', credits_charged: 1 });
      expect(await ledger(orphan.requestId)).toEqual([{ kind: 'consume', amount: 1 }]);
      expect(await holds(orphan.requestId)).toBe(0);
      const description = await stack.temporal.workflow.getHandle(screeningWorkflowId(orphan.requestId)).describe();
      // The submit's X-Request-Id follows the job into the workflow the sweeper started.
      expect(await description.memo).toEqual({ startedBy: 'queued-job-sweeper', httpRequestId: submitRequestId });

      // The young job is the api's own business (its start may be a few milliseconds away): untouched.
      expect((await jobRow(fresh.requestId)).status).toBe('queued');
      expect(await sweep()).toEqual(NOTHING);
      expect(await ledger(orphan.requestId)).toHaveLength(1);
      const balance = (await stack.http('GET', '/api/v1/credits/balance', { key: user.key })).body.data;
      expect(balance).toMatchObject({ balance: 9, reserved: fresh.creditsHeld });
    },
  );

  test(
    'a job never started for longer than abandonAfter is ' + 'failed and its hold released, with nothing charged',
    async () => {
      const user = await stack.createUser({ credits: 5 });
      const stale = await commitWithoutWorkflow(user.id, 11);
      const metricsBefore = (await scrape(stack.workerHttp.url)).samples;
      expect(await sweep()).toEqual({ ...NOTHING, examined: 1, released: 1 });
      // Counted as a failed job like any other, so submitted jobs all end counted as completed or failed.
      const metricsAfter = (await scrape(stack.workerHttp.url)).samples;
      expect(changedSeries(metricsBefore, metricsAfter, 'chainscreen_jobs_failed_total')).toEqual({
        '{api_type="KYA",chain="bitcoin",code="NOT_STARTED"}': 1,
      });
      const row = await jobRow(stale.requestId);
      expect(row.status).toBe('failed');
      expect(row.error.code).toBe('NOT_STARTED');
      expect(Number(row.credits_charged)).toBe(0);
      expect(await holds(stale.requestId)).toBe(0);
      expect(await ledger(stale.requestId)).toEqual([]);
      expect((await stack.http('GET', '/api/v1/credits/balance', { key: user.key })).body.data).toMatchObject({
        balance: 5,
        reserved: 0,
        available: 5,
      });
      const polled = await stack.http('GET', `/api/v1/kyt/job/${stale.requestId}`, { key: user.key });
      expect(polled.body.data).toMatchObject({ status: 'failed', error: { code: 'NOT_STARTED' } });
      // No workflow was started for it, now or later.
      expect(
        await createScreeningWorkflowStarter({
          temporal: stack.temporal,
          taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
        }).status(stale.requestId),
      ).toBeNull();
    },
  );

  test(
    'a running workflow is left alone; one terminated by ' + 'an operator has its job failed and its hold released',
    async () => {
      const user = await stack.createUser({ credits: 5 });
      const job = await commitWithoutWorkflow(user.id, 6);
      // Started on a queue nobody polls: it stays RUNNING, like a job waiting for a worker.
      const idle = createScreeningWorkflowStarter({
        temporal: stack.temporal,
        taskQueue: `nobody-polls-${randomUUID()}`,
      });
      expect(await idle.start(job)).toBe('started');
      expect(await idle.start(job)).toBe('exists');

      expect(await sweep()).toEqual({ ...NOTHING, examined: 1, running: 1 });
      expect((await jobRow(job.requestId)).status).toBe('queued');
      expect(await holds(job.requestId)).toBe(1);

      await stack.temporal.workflow.getHandle(screeningWorkflowId(job.requestId)).terminate('operator stopped it');
      expect(await sweep()).toEqual({ ...NOTHING, examined: 1, released: 1 });
      const row = await jobRow(job.requestId);
      expect(row).toMatchObject({ status: 'failed', error: { code: 'JOB_ABORTED' } });
      expect(row.error.message).toContain('TERMINATED');
      expect(await holds(job.requestId)).toBe(0);
      expect((await stack.http('GET', '/api/v1/credits/balance', { key: user.key })).body.data).toMatchObject({
        balance: 5,
        reserved: 0,
      });
    },
  );

  test('thresholds a caller passes to the sweep are ignored: the worker config decides', async () => {
    const user = await stack.createUser({ credits: 10 });
    const orphan = await commitWithoutWorkflow(user.id, 6);
    const fresh = await commitWithoutWorkflow(user.id, 0);
    // Anyone who can start a workflow could ask for these: release every queued job, however young.
    const harmful = { restartAfterMs: 0, abandonAfterMs: 0, limit: 1_000_000, heartbeatTimeoutMs: 1 };

    expect(await sweep([harmful])).toEqual({ ...NOTHING, examined: 1, restarted: 1 });
    expect(await pollUntilDone(stack, user.key, orphan.requestId, 30_000)).toMatchObject({
      data: { status: 'completed', credits_charged: 1 },
    });
    expect(await jobRow(fresh.requestId)).toMatchObject({ status: 'queued', error: null });
    expect(await holds(fresh.requestId)).toBe(1);
    expect(await ledger(orphan.requestId)).toEqual([{ kind: 'consume', amount: 1 }]);
  });

  test(
    'a job whose workflow completed while its row stayed queued gets the result the workflow wrote, ' +
      'charged once; a second sweep changes nothing',
    async () => {
      const user = await stack.createUser({ credits: 5 });
      const job = await commitWithoutWorkflow(user.id, 6);
      // A worker whose mirror write never lands (the row stays queued) runs the job's workflow to completion.
      const lossy = await startLossyWorker();
      try {
        const starter = createScreeningWorkflowStarter({ temporal: stack.temporal, taskQueue: lossy.taskQueue });
        expect(await starter.start(job)).toBe('started');
        const outcome = await stack.temporal.workflow.getHandle(screeningWorkflowId(job.requestId)).result();
        expect(outcome).toMatchObject({ status: 'completed', creditsCharged: 1 });
      } finally {
        await lossy.stop();
      }
      expect(await jobRow(job.requestId)).toMatchObject({ status: 'queued', credits_charged: null });
      expect(await ledger(job.requestId)).toEqual([{ kind: 'consume', amount: 1 }]);

      expect(await sweep()).toEqual({ ...NOTHING, examined: 1, repaired: 1 });
      const polled = await stack.http('GET', `/api/v1/kyt/job/${job.requestId}`, { key: user.key });
      expect(polled.body.data).toMatchObject({
        status: 'completed',
        credits_charged: 1,
        response: { api_type: 'KYA', chain: 'bitcoin' },
      });
      expect(await sweep()).toEqual(NOTHING);
      expect(await ledger(job.requestId)).toEqual([{ kind: 'consume', amount: 1 }]);
      expect(await holds(job.requestId)).toBe(0);
      expect((await stack.http('GET', '/api/v1/credits/balance', { key: user.key })).body.data).toMatchObject({
        balance: 4,
        reserved: 0,
      });
    },
  );

  test('workers keep one schedule per task queue in step with their config, and its runs sweep', async () => {
    const log = createLogger('silent');
    const config = {
      ...stack.config,
      QUEUED_JOB_SWEEP_EVERY_SECONDS: 3600,
      QUEUED_JOB_RESTART_AFTER_SECONDS: 5 * 3600,
      QUEUED_JOB_ABANDON_AFTER_SECONDS: 10 * 3600,
    };
    expect(
      await ensureQueuedJobSweeper(stack.temporal, { ...config, QUEUED_JOB_SWEEP_EVERY_SECONDS: 0 }, log),
    ).toBeNull();
    const id = await ensureQueuedJobSweeper(stack.temporal, config, log);
    expect(id).toBe(queuedJobSweeperScheduleId(stack.config.TEMPORAL_TASK_QUEUE));
    // A second worker (or a restart with another interval) updates the same schedule instead of failing.
    expect(await ensureQueuedJobSweeper(stack.temporal, { ...config, QUEUED_JOB_SWEEP_EVERY_SECONDS: 1800 }, log)).toBe(
      id,
    );
    const handle = stack.temporal.schedule.getHandle(id as string);
    try {
      const schedule = await handle.describe();
      expect(schedule.spec.intervals).toEqual([expect.objectContaining({ every: 1_800_000 })]);
      expect(schedule.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: 'queuedJobSweeperWorkflow',
        taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
      });
      expect(schedule.policies.overlap).toBe('SKIP');

      const user = await stack.createUser({ credits: 3 });
      const orphan = await commitWithoutWorkflow(user.id, 6);
      await handle.trigger();
      const done = await pollUntilDone(stack, user.key, orphan.requestId, 30_000);
      expect(done.data).toMatchObject({ status: 'completed', credits_charged: 1 });
      expect(await ledger(orphan.requestId)).toEqual([{ kind: 'consume', amount: 1 }]);
    } finally {
      await handle.delete();
    }
  });
});
