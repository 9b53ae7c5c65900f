/**
 * A submit whose workflow start answers an error is not a free job: the server may have created the workflow
 * anyway (a timeout after the write), which then runs and charges. Every way a start can fail, with Temporal able
 * or unable to say what happened, and the queued-job sweeper racing the job or coming after it, must end in the
 * same invariants: what the submit answered is what the ledger shows, charged at most once, no hold left.
 * Real Postgres and Temporal; only the submit's starter is wrapped to fail the way a network does.
 */
import { randomUUID } from 'node:crypto';
import { capabilitiesFor } from '../../src/screening/engine/capabilities';
import { configuredChains } from '../../src/screening/chains/registry';
import { createJobService, type SubmitResult } from '../../src/screening/job-service';
import {
  createScreeningWorkflowStarter,
  type ScreeningWorkflowStarter,
} from '../../src/screening/screening-workflow-starter';
import { screeningWorkflowId } from '../../src/screening/workflow-ids';
import type { QueuedJobSweepSummary } from '../../src/screening/workflow-types';
import type { User } from '../../src/identity';
import { createLogger } from '../../src/platform/logging/logger';
import { startTestStack, type TestStack } from '../helpers/test-stack';

// Reference-data-only bitcoin KYA: no chain node needed, completes in milliseconds, costs 1 credit.
const TARGET = '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h';
const CREDITS = 5;
// Thresholds in hours (the worker's config): only this file's deliberately aged jobs are swept.
const SWEEPER_ENV = {
  QUEUED_JOB_RESTART_AFTER_SECONDS: String(5 * 3600),
  QUEUED_JOB_ABANDON_AFTER_SECONDS: String(10 * 3600),
};

/** How the submit's start fails: after the server created the workflow (a timeout), or before (refused). */
type StartFailure = 'created-then-timed-out' | 'refused-before-creating';
/** Whether Temporal can then say if the workflow exists. */
type Describe = 'answers' | 'unreachable';
/** When the sweeper comes: racing the job right after the submit (twice at once), or after it has ended. */
type SweepOrder = 'racing-the-job' | 'after-the-job';

function failingStarter(real: ScreeningWorkflowStarter, start: StartFailure, describe: Describe) {
  const starter: ScreeningWorkflowStarter = {
    async start(input, options) {
      if (start === 'created-then-timed-out') await real.start(input, options);
      throw Object.assign(new Error('4 DEADLINE_EXCEEDED: Deadline exceeded'), { code: 4 });
    },
    async status(requestId) {
      if (describe === 'unreachable')
        throw Object.assign(new Error('14 UNAVAILABLE: connection refused'), { code: 14 });
      return real.status(requestId);
    },
    lastMirrorWrite: (requestId) => real.lastMirrorWrite(requestId),
  };
  return starter;
}

describe('an ambiguous workflow start is never answered as a free job', () => {
  let stack: TestStack;
  let realStarter: ScreeningWorkflowStarter;

  beforeAll(async () => {
    stack = await startTestStack({ env: SWEEPER_ENV });
    realStarter = createScreeningWorkflowStarter({
      temporal: stack.temporal,
      taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
    });
  });
  afterAll(async () => {
    await stack.stop();
  });

  function submitWith(starter: ScreeningWorkflowStarter, user: User): Promise<SubmitResult> {
    const service = createJobService({
      pool: stack.pool,
      credits: stack.stores.credits,
      jobs: stack.stores.jobs,
      subscriptions: stack.stores.subscriptions,
      policies: stack.stores.policies,
      capabilities: capabilitiesFor(configuredChains(stack.config)),
      temporal: stack.temporal,
      starter,
      heartbeatTimeoutMs: stack.config.ANALYSIS_HEARTBEAT_TIMEOUT_MS,
      log: createLogger('silent'),
      metrics: { jobSubmitted: () => undefined, jobFailed: () => undefined },
    });
    return service.submit(user, {
      apiType: 'KYA',
      chain: 'bitcoin',
      target: TARGET,
      crawlTimeoutMs: 8000,
      referenceId: null,
    });
  }

  const sweep = () =>
    stack.temporal.workflow.execute('queuedJobSweeperWorkflow', {
      taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
      workflowId: `sweep-ambiguous-${randomUUID()}`,
    }) as Promise<QueuedJobSweepSummary>;
  const age = (requestId: string) =>
    stack.pool.query(`UPDATE screening_jobs SET created_at = now() - interval '6 hours' WHERE request_id = $1`, [
      requestId,
    ]);
  const row = async (requestId: string) =>
    (
      await stack.pool.query('SELECT status, error, credits_charged FROM screening_jobs WHERE request_id = $1', [
        requestId,
      ])
    ).rows[0];
  const consumed = async (requestId: string) =>
    (
      await stack.pool.query<{ amount: string }>(
        `SELECT amount FROM credit_transactions WHERE idempotency_key = $1 AND kind = 'consume'`,
        [`screening:${requestId}`],
      )
    ).rows.map((r) => Number(r.amount));
  const holds = async (requestId: string) =>
    Number(
      (await stack.pool.query('SELECT count(*) FROM credit_holds WHERE hold_key = $1', [requestId])).rows[0].count,
    );
  const account = async (userId: string) =>
    (await stack.pool.query('SELECT balance, reserved FROM credit_accounts WHERE user_id = $1', [userId])).rows[0];

  /**
   * Waits until the job's workflow (if any) has ended and its row has left `queued`, sweeping as the schedule would.
   */
  async function untilFinished(requestId: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const status = await realStarter.status(requestId);
      if (status === 'RUNNING') await stack.temporal.workflow.getHandle(screeningWorkflowId(requestId)).result();
      if ((await row(requestId)).status !== 'queued') return;
      if (Date.now() > deadline) throw new Error(`job ${requestId} still queued`);
      await sweep();
    }
  }

  const cases: [StartFailure, Describe, SweepOrder, SubmitResult['kind']][] = [];
  for (const start of ['created-then-timed-out', 'refused-before-creating'] as const)
    for (const describe of ['answers', 'unreachable'] as const)
      for (const order of ['racing-the-job', 'after-the-job'] as const)
        cases.push([
          start,
          describe,
          order,
          start === 'refused-before-creating' && describe === 'answers' ? 'not_started' : 'queued',
        ]);

  test.each(cases)(
    'start %s, describe %s, sweeper %s: answered %s, and the ledger agrees with the answer',
    async (start, describe, order, expectedAnswer) => {
      const seeded = await stack.createUser({ credits: CREDITS });
      const user: User = { id: seeded.id, clerkUserId: null, email: null, role: 'user', status: 'active' };
      const answer = await submitWith(failingStarter(realStarter, start, describe), user);
      const requestId = answer.kind === 'insufficient_credits' ? '' : answer.job.requestId;

      if (order === 'racing-the-job') {
        await age(requestId);
        await Promise.all([sweep(), sweep()]);
      } else {
        const status = await realStarter.status(requestId);
        if (status !== null) await stack.temporal.workflow.getHandle(screeningWorkflowId(requestId)).result();
        await age(requestId);
      }
      await untilFinished(requestId);
      await sweep();

      // The invariants, whatever the order: charged at most once, the row says what the ledger shows, nothing held.
      const charges = await consumed(requestId);
      const charged = charges.reduce((sum, amount) => sum + amount, 0);
      expect(charges.length).toBeLessThanOrEqual(1);
      expect(await holds(requestId)).toBe(0);
      expect(await account(user.id)).toEqual({ balance: CREDITS - charged, reserved: 0 });
      const final = await row(requestId);
      expect(Number(final.credits_charged)).toBe(charged);
      if (answer.kind === 'not_started') {
        // "Nothing was charged" must stay true: no workflow exists to charge later.
        expect(charged).toBe(0);
        expect(final).toMatchObject({ status: 'failed', error: { code: 'NOT_STARTED' } });
        expect(await realStarter.status(requestId)).toBeNull();
      } else {
        expect(final.status).toBe('completed');
        expect(charges).toEqual([1]);
      }
      // Given up only when Temporal says no workflow exists; otherwise the job stands (202), as in the contract.
      expect(answer.kind).toBe(expectedAnswer);
    },
  );
});
