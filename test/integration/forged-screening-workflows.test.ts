/**
 * Whoever reaches the Temporal frontend can start any workflow with any input. Each screening-side workflow type
 * (screeningWorkflow, batchItemScreeningWorkflow, x402ReportWorkflow, batchScreeningWorkflow, queuedJobSweeperWorkflow)
 * is started here by hand through the Temporal client with forged inputs, on the real stack (api + worker + Postgres +
 * Temporal): each forged run fails with INPUT_NOT_AUTHENTIC, no analysis runs (the worker's engine counts its calls,
 * and no analysis completes in the workflow histories), and nothing changes: balances, reservations, the ledger, holds,
 * jobs, history entries, batches. The genuine inputs still run.
 */
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import { Pool } from 'pg';
import { createBatchService, type BatchWorkflowStarter } from '../../src/batches';
import { parseBatchRequest } from '../../src/batches/batch-request';
import type { BatchWorkflowInput } from '../../src/batches/workflow-types';
import { ChargeNotHeldError } from '../../src/billing/credits-store';
import { createLogger } from '../../src/platform/logging/logger';
import { capabilitiesFor } from '../../src/screening/engine/capabilities';
import { createScreeningEngine, type ScreeningEngine } from '../../src/screening/engine/engine';
import { loadPriceBook } from '../../src/screening/engine/prices';
import { createReferenceData } from '../../src/screening/engine/reference-data';
import { loadRiskModel } from '../../src/screening/engine/risk-model';
import { createStoredCloses } from '../../src/market/store/market-closes';
import { jobCost, deepestAffordableDepth, MINIMUM_CHARGE } from '../../src/screening/pricing';
import type { QueuedJobSweepSummary, ScreeningInput } from '../../src/screening/workflow-types';
import { startTestStack, type TestStack } from '../helpers/test-stack';

// Reference-data-only bitcoin KYA (the engine here has no chain client): no chain call, costs 1 credit.
const TARGET = '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h';
const REFERENCE_DATA_DIR = 'data/risk';

describe('workflows started by hand with forged inputs analyse, charge and release nothing', () => {
  let stack: TestStack;
  let enginePool: Pool;
  /** Every target the worker's engine was asked to analyse, in order. */
  const analysed: string[] = [];
  let owner: { id: string; key: string };
  let other: { id: string; key: string };
  /** The owner's job as the api commits it (hold + queued row) with its workflow not started yet. */
  let pending: ScreeningInput;
  let batchId: string;

  beforeAll(async () => {
    enginePool = new Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 2 });
    const real = createScreeningEngine({
      referenceData: createReferenceData(enginePool),
      chainClients: {},
      prices: loadPriceBook(path.join(REFERENCE_DATA_DIR, '..', 'prices', 'usd-reference-prices.json')),
      model: loadRiskModel(REFERENCE_DATA_DIR),
      storedCloses: createStoredCloses(enginePool),
    });
    const counting: ScreeningEngine = {
      capabilities: real.capabilities,
      analyze: async (req, signal) => {
        analysed.push(req.target);
        return real.analyze(req, signal);
      },
    };
    stack = await startTestStack({
      activityDeps: { engine: counting },
      env: {
        // The hand-started sweep below must not reach other files' deliberately aged jobs (hours old): its
        // thresholds are this worker's, a day; a forged input asking for 0 is ignored.
        QUEUED_JOB_RESTART_AFTER_SECONDS: String(24 * 3600),
        QUEUED_JOB_ABANDON_AFTER_SECONDS: String(7 * 24 * 3600),
      },
    });
    owner = await stack.createUser({ credits: 10 });
    other = await stack.createUser({ credits: 10 });
    pending = await commitWithoutWorkflow(owner.id);
    batchId = await batchWithoutWorkflow(owner.id);
  }, 120_000);
  afterAll(async () => {
    await stack?.pool.query(`DELETE FROM x402_payments WHERE payer LIKE 'forged-test-%'`);
    await stack?.stop();
    await enginePool?.end();
  });

  /** What the api commits before it starts a job's workflow: the hold and the queued row, in one transaction. */
  async function commitWithoutWorkflow(userId: string): Promise<ScreeningInput> {
    const requestId = randomUUID();
    const client = await stack.pool.connect();
    try {
      await client.query('BEGIN');
      const held = await stack.stores.credits.reserve(userId, requestId, MINIMUM_CHARGE, jobCost(3), client);
      const input: ScreeningInput = {
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
      await stack.stores.jobs.insertQueued(input, client);
      await client.query('COMMIT');
      return input;
    } finally {
      client.release();
    }
  }

  /** A batch of two items as the api records it, its workflow not started (the api died after the commit). */
  async function batchWithoutWorkflow(userId: string): Promise<string> {
    const starter: BatchWorkflowStarter = {
      ensureStarted: async () => {
        throw new Error('not started: the test starts it');
      },
      status: async () => null,
    };
    const service = createBatchService({
      pool: stack.pool,
      credits: stack.stores.credits,
      subscriptions: stack.stores.subscriptions,
      jobs: stack.stores.jobs,
      batches: stack.stores.batches,
      capabilities: capabilitiesFor([]),
      policies: { resolve: async () => null },
      starter,
      log: createLogger('silent'),
    });
    const items = [0, 1].map((i) => ({ chain: 'bitcoin', address: TARGET, reference_id: `forged-test-${i}` }));
    const request = parseBatchRequest(
      { items },
      null,
      { defaultCrawlTimeoutMs: 8000, maxCrawlTimeoutMs: 120_000 },
      capabilitiesFor([]),
    );
    return (await service.submit(userId, request)).batch.id;
  }

  /** Everything a forged run could have changed for these accounts. */
  async function snapshot() {
    const users = [owner.id, other.id];
    const rows = async (sql: string) => (await stack.pool.query(sql, [users])).rows;
    return {
      accounts: await rows(
        'SELECT user_id, balance, reserved, debt FROM credit_accounts WHERE user_id = ANY($1::uuid[]) ORDER BY user_id',
      ),
      ledger: await rows(
        `SELECT id, user_id, kind, amount, idempotency_key FROM credit_transactions WHERE user_id = ANY($1::uuid[])
         ORDER BY id`,
      ),
      holds: await rows(
        'SELECT hold_key, user_id, amount FROM credit_holds WHERE user_id = ANY($1::uuid[]) ORDER BY hold_key',
      ),
      jobs: await rows(
        `SELECT request_id, status, seq, credits_charged, error FROM screening_jobs WHERE user_id = ANY($1::uuid[])
         ORDER BY request_id`,
      ),
      history: await rows('SELECT id FROM activity_history WHERE user_id = ANY($1::uuid[]) ORDER BY id'),
      batches: await rows(
        'SELECT id, status, progress_seq FROM screening_batches WHERE user_id = ANY($1::uuid[]) ORDER BY id',
      ),
      batchItems: await rows(
        `SELECT i.batch_id, i.idx, i.status FROM batch_items i JOIN screening_batches b ON b.id = i.batch_id
         WHERE b.user_id = ANY($1::uuid[]) ORDER BY i.batch_id, i.idx`,
      ),
      x402: (
        await stack.pool.query(
          `SELECT network, contract, payer, nonce, status, request_id FROM x402_payments
           WHERE payer LIKE 'forged-test-%' ORDER BY payer`,
        )
      ).rows,
    };
  }

  /**
   * Starts `type` by hand under `workflowId` and expects it to fail with INPUT_NOT_AUTHENTIC (its message matching
   * `reason`), with no analysis completed in its workflow history and no child workflow started.
   */
  async function expectRefused(type: string, workflowId: string, args: unknown[], reason: RegExp): Promise<void> {
    const failure = await stack.temporal.workflow
      .execute(type, { taskQueue: stack.config.TEMPORAL_TASK_QUEUE, workflowId, args })
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    // An activity's failure comes wrapped in an ActivityFailure; a local activity's (a batch item's) as it is.
    const cause = (failure as WorkflowFailedError).cause;
    const refusal = (cause instanceof ActivityFailure ? cause.cause : cause) as ApplicationFailure;
    expect(refusal).toBeInstanceOf(ApplicationFailure);
    expect([refusal.type, refusal.nonRetryable]).toEqual(['INPUT_NOT_AUTHENTIC', true]);
    expect(refusal.message).toMatch(reason);
    const events = (await stack.temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    // One step ran, the check, and it failed: nothing completed, no settle (release, mirror) was even scheduled.
    const scheduled = events.flatMap((e) => e.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
    expect(scheduled.length).toBeLessThanOrEqual(1);
    expect(events.filter((e) => e.activityTaskCompletedEventAttributes)).toEqual([]);
    const localActivities = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
    expect(scheduled.length + localActivities.length).toBe(1);
    expect(localActivities.filter((e) => !e.markerRecordedEventAttributes?.failure)).toEqual([]);
    expect(events.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).toEqual([]);
  }

  test(
    'screeningWorkflow: a made-up request id, a real pending job with another user, a larger creditsHeld, ' +
      'another target or depth, or the exact input under another workflow id is refused before any analysis, ' +
      "and the pending job's hold and row stay as the api left them",
    async () => {
      const before = await snapshot();
      const id = (requestId: string) => `screening:${requestId}`;
      const madeUp = { ...pending, requestId: randomUUID() };
      await expectRefused('screeningWorkflow', id(madeUp.requestId), [madeUp], /no hold/);
      const otherUser = { ...pending, userId: other.id };
      await expectRefused('screeningWorkflow', id(pending.requestId), [otherUser], /no hold/);
      const larger = { ...pending, creditsHeld: pending.creditsHeld + 5 };
      await expectRefused('screeningWorkflow', id(pending.requestId), [larger], /no hold/);
      const deeper = { ...pending, maxDepth: pending.maxDepth + 5 };
      await expectRefused('screeningWorkflow', id(pending.requestId), [deeper], /not the job recorded/);
      const elsewhere = { ...pending, target: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' };
      await expectRefused('screeningWorkflow', id(pending.requestId), [elsewhere], /not the job recorded/);
      await expectRefused('screeningWorkflow', `forged-${randomUUID()}`, [pending], /runs as screening:/);
      // Not even a string where the numbers go reaches Postgres as a query error (which would be retried).
      const garbled = { ...pending, creditsHeld: '1; DROP TABLE credit_holds' };
      await expectRefused('screeningWorkflow', id(pending.requestId), [garbled], /no hold/);

      expect(analysed).toEqual([]);
      expect(await snapshot()).toEqual(before);
    },
  );

  test('batchItemScreeningWorkflow: another user or a larger creditsHeld is refused before its analysis', async () => {
    const before = await snapshot();
    const id = `screening:${pending.requestId}`;
    await expectRefused('batchItemScreeningWorkflow', id, [{ ...pending, userId: other.id }], /no hold/);
    const larger = { ...pending, creditsHeld: pending.creditsHeld + 3 };
    await expectRefused('batchItemScreeningWorkflow', id, [larger], /no hold/);
    await expectRefused('batchItemScreeningWorkflow', `screening:${randomUUID()}`, [pending], /runs as screening:/);

    expect(analysed).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  test(
    'x402ReportWorkflow: a request id with no claim, a settled claim, or a live claim under another workflow ' +
      'id is refused; a live claim under its own id runs',
    async () => {
      const claim = async (status: 'processing' | 'settled', requestId: string) =>
        stack.pool.query(
          `INSERT INTO x402_payments ` +
            `(network, contract, payer, nonce, method, report, status, amount, asset, request_id)
           VALUES ('eip155:8453', '0xcontract', $1, $2, 'eip3009', 'kya', $3, '1000000', '0xasset', $4)`,
          [`forged-test-${randomUUID()}`, `0x${randomBytes(32).toString('hex')}`, status, requestId],
        );
      const report = (requestId: string) => ({ ...pending, requestId, userId: 'x402', creditsHeld: 0 });
      const unclaimed = randomUUID();
      const settled = randomUUID();
      await claim('settled', settled);
      const live = randomUUID();
      await claim('processing', live);
      const before = await snapshot();

      await expectRefused('x402ReportWorkflow', `x402:kya:${unclaimed}`, [report(unclaimed)], /no live x402/);
      await expectRefused('x402ReportWorkflow', `x402:kya:${settled}`, [report(settled)], /no live x402/);
      await expectRefused('x402ReportWorkflow', `x402:kyt:${live}`, [report(live)], /runs as x402:kya:/);
      expect(analysed).toEqual([]);
      expect(await snapshot()).toEqual(before);

      // The genuine one: the live claim's own workflow id. (It charges no credits: the api settles the USDC.)
      const result = await stack.temporal.workflow.execute('x402ReportWorkflow', {
        taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
        workflowId: `x402:kya:${live}`,
        args: [report(live)],
      });
      expect(result).toMatchObject({ response: { api_type: 'KYA', chain: 'bitcoin' } });
      expect(analysed).toEqual([TARGET]);
      analysed.length = 0;
      expect(await snapshot()).toEqual(before);
    },
  );

  test(
    'batchScreeningWorkflow: a batch id that does not exist, a real batch under another workflow id, or with ' +
      "another user id starts nothing; the batch's own input under its own id runs it",
    async () => {
      const before = await snapshot();
      const input = (over: Partial<BatchWorkflowInput> = {}): BatchWorkflowInput => ({
        batchId,
        userId: owner.id,
        concurrency: 10_000,
        continueAsNewAfter: 10_000,
        ...over,
      });
      const nowhere = randomUUID();
      await expectRefused('batchScreeningWorkflow', `batch:${nowhere}`, [input({ batchId: nowhere })], /no batch/);
      await expectRefused('batchScreeningWorkflow', `batch:${randomUUID()}`, [input()], /runs as batch:/);
      await expectRefused('batchScreeningWorkflow', `batch:${batchId}`, [input({ userId: other.id })], /no batch/);
      expect(analysed).toEqual([]);
      expect(await snapshot()).toEqual(before);

      // The genuine run (its figures clamped to the worker's config whatever the input says) runs both items.
      const outcome = await stack.temporal.workflow.execute('batchScreeningWorkflow', {
        taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
        workflowId: `batch:${batchId}`,
        args: [input()],
      });
      expect(outcome).toMatchObject({ batchId, status: 'completed', started: 2 });
      expect(analysed).toEqual([TARGET, TARGET]);
      analysed.length = 0;
      const { rows } = await stack.pool.query(
        'SELECT status, credits_charged FROM batch_items WHERE batch_id = $1 ORDER BY idx',
        [batchId],
      );
      expect(rows).toEqual([
        { status: 'completed', credits_charged: 1 },
        { status: 'completed', credits_charged: 1 },
      ]);
    },
  );

  test(
    'queuedJobSweeperWorkflow: started by hand with thresholds of 0, it sweeps with the worker’s own ' +
      '(a day): the pending job is left queued with its hold, nothing else of these accounts changes',
    async () => {
      const before = await snapshot();
      const summary = (await stack.temporal.workflow.execute('queuedJobSweeperWorkflow', {
        taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
        workflowId: `forged-sweep-${randomUUID()}`,
        args: [{ restartAfterMs: 0, abandonAfterMs: 0, limit: 1_000_000, heartbeatTimeoutMs: 1 }],
      })) as QueuedJobSweepSummary;
      expect(summary).toMatchObject({ restarted: 0, released: 0 });
      expect(analysed).toEqual([]);
      expect(await snapshot()).toEqual(before);
      expect(before.jobs.find((j) => j.request_id === pending.requestId)).toMatchObject({ status: 'queued' });
    },
  );

  test(
    'the ledger refuses too: a charge naming the pending hold for another user, for more than it holds, or a ' +
      'hold that does not exist is CHARGE_NOT_HELD; the genuine input then runs and is charged once',
    async () => {
      const before = await snapshot();
      const charge = (over: { userId?: string; amount?: number; holdKey?: string }) =>
        stack.stores.credits.consume({
          userId: over.userId ?? owner.id,
          amount: over.amount ?? 1,
          idempotencyKey: `screening:${randomUUID()}`,
          holdKey: over.holdKey ?? pending.requestId,
          reason: 'forged charge',
        });
      await expect(charge({ userId: other.id })).rejects.toBeInstanceOf(ChargeNotHeldError);
      await expect(charge({ amount: pending.creditsHeld + 1 })).rejects.toBeInstanceOf(ChargeNotHeldError);
      await expect(charge({ holdKey: randomUUID() })).rejects.toMatchObject({ code: 'CHARGE_NOT_HELD' });
      expect(await snapshot()).toEqual(before);

      // After all of the above, the job's own workflow with its own input completes and is charged exactly once.
      const outcome = await stack.temporal.workflow.execute('screeningWorkflow', {
        taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
        workflowId: `screening:${pending.requestId}`,
        args: [pending],
      });
      expect(outcome).toMatchObject({ status: 'completed', creditsCharged: 1 });
      expect(analysed).toEqual([TARGET]);
      const { rows: ledger } = await stack.pool.query(
        'SELECT user_id, amount FROM credit_transactions WHERE idempotency_key = $1',
        [`screening:${pending.requestId}`],
      );
      expect(ledger).toEqual([{ user_id: owner.id, amount: 1 }]);
      // A retried charge of the same key is still answered (duplicate), though its hold is now settled.
      const retry = await stack.stores.credits.consume({
        userId: owner.id,
        amount: 1,
        idempotencyKey: `screening:${pending.requestId}`,
        holdKey: pending.requestId,
        reason: 'retry',
      });
      expect(retry.duplicate).toBe(true);
      expect(await stack.stores.credits.balance(other.id)).toEqual({
        balance: 10,
        reserved: 0,
        available: 10,
        debt: 0,
      });
    },
  );

  test(
    'a settled job run again under its own id (a worker lost after its local settle committed replays the ' +
      'analysis; or a hand start of a closed job) answers from what was stored: no analysis, no second charge',
    async () => {
      const job = await commitWithoutWorkflow(owner.id);
      const run = (workflowId: string) =>
        stack.temporal.workflow.execute('screeningWorkflow', {
          taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
          workflowId,
          args: [job],
        });
      const first = await run(`screening:${job.requestId}`);
      const analysedOnce = [...analysed];
      const before = await snapshot();

      const again = await run(`screening:${job.requestId}`);
      expect(again).toEqual(first);
      expect(analysed).toEqual(analysedOnce);
      const after = await snapshot();
      // The mirror is written again with the same answer (a newer seq); nothing else moves.
      const withoutSeq = (s: typeof before) => ({ ...s, jobs: s.jobs.map(({ seq: _seq, ...j }) => j) });
      expect(withoutSeq(after)).toEqual(withoutSeq(before));
    },
  );
});
