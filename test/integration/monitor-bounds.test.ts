import { randomBytes, randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createMonitorActivities } from '../../src/monitors/activities';
import { capabilitiesFor } from '../../src/screening/engine/capabilities';
import type { MonitorPreparation } from '../../src/monitors/workflow-types';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * Monitors are paid for and bounded (issue 28), on a real api, worker, Postgres and Temporal: a create holds the
 * price of the first screening (402 and nothing stored or started without it), an account keeps at most
 * MAX_ACTIVE_MONITORS_PER_ACCOUNT monitors (5 here) however many creates race, and deleting and creating again
 * gets around neither rule. The stack starts without a worker, so a first screening can be caught before it ran;
 * the worker starts when a test needs screenings to run. Ethereum is screened on the lists only here: 1 credit.
 */
const CAP = 5;

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false, env: { MAX_ACTIVE_MONITORS_PER_ACCOUNT: String(CAP) } });
}, 120_000);
afterAll(async () => stack?.stop());

const anAddress = () => `0x${randomBytes(20).toString('hex')}`;
const create = (key: string, address = anAddress()) =>
  stack.http('POST', '/api/v1/monitors', { key, body: { chain: 'ethereum', address } });

async function until<T>(what: string, read: () => Promise<T | null | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What the account's money and monitors look like in Postgres. */
async function accountState(userId: string) {
  const { rows } = await stack.pool.query(
    `SELECT (SELECT balance FROM credit_accounts WHERE user_id = $1)::int AS balance,
            (SELECT reserved FROM credit_accounts WHERE user_id = $1)::int AS reserved,
            (SELECT count(*) FROM credit_holds WHERE user_id = $1)::int AS holds,
            (SELECT count(*) FROM credit_transactions WHERE user_id = $1)::int AS transactions,
            (SELECT count(*) FROM screening_jobs WHERE user_id = $1)::int AS jobs,
            (SELECT count(*) FROM monitors WHERE user_id = $1)::int AS monitors,
            (SELECT count(*) FROM monitors WHERE user_id = $1 AND status <> 'deleted')::int AS live`,
    [userId],
  );
  return rows[0] as {
    balance: number | null;
    reserved: number | null;
    holds: number;
    transactions: number;
    jobs: number;
    monitors: number;
    live: number;
  };
}

/** The account's monitor workflows Temporal knows (any status), by workflow id. */
async function monitorWorkflows(userId: string, status?: 'Running') {
  const running = status ? ` AND ExecutionStatus = '${status}'` : '';
  const query = `WorkflowType = 'monitorWorkflow' AND UserId = '${userId}'${running}`;
  const ids: string[] = [];
  for await (const w of stack.temporal.workflow.list({ query })) ids.push(w.workflowId);
  return ids.sort();
}

const statusOf = async (id: string) =>
  (await stack.temporal.workflow.getHandle(`monitor:${id}`).describe()).status.name;

describe('monitors are paid for and bounded', () => {
  test(
    'when a 0-credit account sends 200 monitor creates, 20 at a time, then each is 402 INSUFFICIENT_CREDITS, no ' +
      'monitor is stored, nothing is held and no monitor workflow starts',
    async () => {
      const poor = await stack.createUser({ credits: 0 });
      const before = await accountState(poor.id);
      const answers = [];
      for (let wave = 0; wave < 10; wave++) {
        // A few twins among them: the same target asked twice at once is refused twice.
        const addresses = Array.from({ length: 20 }, (_, i) => (i % 5 === 0 ? `0x${'ab'.repeat(20)}` : anAddress()));
        answers.push(...(await Promise.all(addresses.map((a) => create(poor.key, a)))));
      }
      expect(answers).toHaveLength(200);
      for (const a of answers) {
        expect([a.status, a.body.code, a.body.required, a.body.available]).toEqual([402, 'INSUFFICIENT_CREDITS', 1, 0]);
      }
      const after = await accountState(poor.id);
      expect(after).toEqual({ ...before, balance: 0, reserved: 0 });
      expect(after).toMatchObject({ monitors: 0, holds: 0, jobs: 0, transactions: 0 });
      // Visibility lags a start by a moment: give it one, then nothing may be listed.
      await new Promise((r) => setTimeout(r, 2_000));
      expect(await monitorWorkflows(poor.id)).toEqual([]);
      expect((await stack.http('GET', '/api/v1/monitors', { key: poor.key })).body.pagination.total).toBe(0);
    },
  );

  test(
    'when a monitor is deleted before its first screening ran, then its hold is released; created again it needs ' +
      'a new hold, and while that hold takes the last credit another create is refused',
    async () => {
      // No worker yet: the first screening cannot run, so the hold the create made is still there at the delete.
      const user = await stack.createUser({ credits: 1 });
      const address = anAddress();
      const first = await create(user.key, address);
      expect(first.status).toBe(201);
      expect(await accountState(user.id)).toMatchObject({ balance: 1, reserved: 1, holds: 1, jobs: 0, live: 1 });
      const held = await stack.pool.query('SELECT hold_key, amount::int FROM credit_holds WHERE user_id = $1', [
        user.id,
      ]);
      const { rows } = await stack.pool.query('SELECT first_request_id FROM monitors WHERE id = $1', [
        first.body.data.id,
      ]);
      expect(held.rows).toEqual([{ hold_key: rows[0].first_request_id, amount: 1 }]);
      // The one credit is held: a second monitor cannot be paid for.
      expect((await create(user.key)).status).toBe(402);

      const deleted = await stack.http('DELETE', `/api/v1/monitors/${first.body.data.id}`, { key: user.key });
      expect(deleted.status).toBe(200);
      expect(await accountState(user.id)).toMatchObject({ balance: 1, reserved: 0, holds: 0, jobs: 0, live: 0 });

      // Created again: a new monitor with a new hold, the deleted one no longer counted nor held.
      const again = await create(user.key, address);
      expect(again.status).toBe(201);
      expect(again.body.data.id).not.toBe(first.body.data.id);
      expect(await accountState(user.id)).toMatchObject({ balance: 1, reserved: 1, holds: 1, live: 1 });
    },
  );

  test(
    `when 20 creates race at an account's cap of ${CAP}, then exactly ${CAP} monitors and ${CAP} running ` +
      'workflows exist, the rest 409 MONITOR_LIMIT_REACHED naming the limit',
    async () => {
      await stack.startWorker();
      const user = await stack.createUser({ credits: 50 });
      const answers = await Promise.all(Array.from({ length: 20 }, () => create(user.key)));
      const created = answers.filter((a) => a.status === 201);
      const refused = answers.filter((a) => a.status !== 201);
      expect(created).toHaveLength(CAP);
      for (const r of refused) {
        expect(r.status).toBe(409);
        expect(r.body.error).toMatchObject({ code: 'MONITOR_LIMIT_REACHED', details: { limit: CAP } });
      }
      const ids = created.map((a) => a.body.data.id as string).sort();
      expect(await accountState(user.id)).toMatchObject({ monitors: CAP, live: CAP });
      // Each baseline ran on the hold its create made: CAP jobs, CAP credits charged, nothing left held.
      await until('every baseline', async () => ((await accountState(user.id)).jobs === CAP ? true : null));
      await until('every baseline settled', async () => {
        const s = await accountState(user.id);
        return s.reserved === 0 && s.balance === 50 - CAP ? s : null;
      });
      expect(
        await until('the workflows listed', async () => {
          const running = await monitorWorkflows(user.id, 'Running');
          return running.length === CAP ? running : null;
        }),
      ).toEqual(ids.map((id) => `monitor:${id}`).sort());
      expect(await monitorWorkflows(user.id)).toHaveLength(CAP);

      // Delete and create again at the cap: the deleted one stops and frees its place, once.
      const [gone, ...kept] = ids;
      expect((await stack.http('DELETE', `/api/v1/monitors/${gone}`, { key: user.key })).status).toBe(200);
      await until('the deleted workflow to end', async () => ((await statusOf(gone!)) !== 'RUNNING' ? true : null));
      const replacements = await Promise.all(Array.from({ length: 5 }, () => create(user.key)));
      expect(replacements.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
      expect(await accountState(user.id)).toMatchObject({ live: CAP, monitors: CAP + 1 });
      for (const id of kept) expect(await statusOf(id)).toBe('RUNNING');
      // The replacement paid its own first screening.
      await until('the replacement settled', async () => {
        const s = await accountState(user.id);
        return s.jobs === CAP + 1 && s.reserved === 0 && s.balance === 50 - CAP - 1 ? s : null;
      });
    },
  );

  test(
    'when the first screening spent the last credit, then deleting the monitor and creating it again is refused ' +
      '(402): nothing stored, nothing started',
    async () => {
      const user = await stack.createUser({ credits: 1 });
      const address = anAddress();
      const made = await create(user.key, address);
      expect(made.status).toBe(201);
      await until('the baseline spent the credit', async () => {
        const s = await accountState(user.id);
        return s.balance === 0 && s.reserved === 0 ? s : null;
      });
      expect((await stack.http('DELETE', `/api/v1/monitors/${made.body.data.id}`, { key: user.key })).status).toBe(200);
      await until('the deleted workflow to end', async () =>
        (await statusOf(made.body.data.id)) !== 'RUNNING' ? true : null,
      );
      const before = await accountState(user.id);
      const again = await create(user.key, address);
      expect([again.status, again.body.code, again.body.available]).toEqual([402, 'INSUFFICIENT_CREDITS', 0]);
      expect(await accountState(user.id)).toEqual(before);
      expect(before).toMatchObject({ live: 0, monitors: 1, holds: 0, jobs: 1 });
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await monitorWorkflows(user.id)).toEqual([`monitor:${made.body.data.id}`]);
    },
  );

  test(
    "when a re-screen's prepare is retried after its commit, then it continues from the recorded job: one job, " +
      'one hold, the same workflow input',
    async () => {
      const user = await stack.createUser({ credits: 10 });
      const made = await create(user.key);
      expect(made.status).toBe(201);
      const monitorId = made.body.data.id as string;
      await until('the baseline', async () => ((await accountState(user.id)).reserved === 0 ? true : null));
      // The first screening's evaluation stamps last_screened_at after its settle released the hold: wait for it, or
      // the first re-screen is still due (never screened) rather than not due.
      await until('the first evaluation', async () => {
        const { rows } = await stack.pool.query('SELECT last_screened_at FROM monitors WHERE id = $1', [monitorId]);
        return rows[0]?.last_screened_at ? true : null;
      });
      const activities = createMonitorActivities({
        pool: stack.pool,
        credits: stack.stores.credits,
        jobs: stack.stores.jobs,
        subscriptions: stack.stores.subscriptions,
        capabilities: capabilitiesFor([]),
        monitorJob: { heartbeatTimeoutMs: 30_000, crawlTimeoutMs: 10_000 },
        policies: stack.stores.policies,
      });
      const env = new MockActivityEnvironment({
        workflowExecution: { workflowId: `monitor:${monitorId}`, runId: 'r1' },
      });
      const requestId = randomUUID();
      const prepare = () =>
        env.run(activities.prepareMonitorScreening, { monitorId, requestId }) as Promise<MonitorPreparation>;
      // Nothing asked for a re-screen and the schedule is hours away: not due, nothing held or recorded.
      const idle = await accountState(user.id);
      expect(await prepare()).toEqual({ status: 'not_due' });
      expect(await accountState(user.id)).toEqual(idle);
      // The owner asks (the api records the request before its signal): now it is due.
      await stack.pool.query(
        `INSERT INTO monitor_rescreen_requests (monitor_id, reason) VALUES ($1, 'requested by the owner')`,
        [monitorId],
      );
      const first = await prepare();
      const before = await accountState(user.id);
      const retried = await prepare();
      expect(first.status).toBe('ready');
      expect(retried).toEqual(first);
      expect(await accountState(user.id)).toEqual(before);
      expect(before).toMatchObject({ reserved: 1, holds: 1 });
      const jobs = await stack.pool.query('SELECT status FROM screening_jobs WHERE request_id = $1', [requestId]);
      expect(jobs.rows).toEqual([{ status: 'queued' }]);

      // The job then runs as the workflow would run it, and settles its one hold.
      if (first.status !== 'ready') throw new Error('not ready');
      await stack.temporal.workflow.execute('screeningWorkflow', {
        workflowId: `screening:${requestId}`,
        taskQueue: stack.config.TEMPORAL_TASK_QUEUE,
        args: [first.input],
      });
      expect(await accountState(user.id)).toMatchObject({ reserved: 0, holds: 0, balance: 8 });
    },
  );
});
