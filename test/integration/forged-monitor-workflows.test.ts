import { randomBytes, randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { noticeMonitors } from '../../src/lists/notify-monitors';
import type { ListVersionNoticeInput, MonitorWorkflowInput } from '../../src/monitors/workflow-types';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * Whoever reaches the Temporal frontend can start monitorWorkflow and listVersionNoticeWorkflow with any input
 * (issue 28). Started by hand through the client with forged inputs, they must screen, charge, hold, alert and
 * signal nothing: a made-up or another monitor's id, a workflow id that is not monitor:<id>, a made-up list
 * version, a version's notice run a second time. Each is compared with what Postgres held before (balances, ledger,
 * holds, jobs, alerts, monitors). List versions here are rows of their own, superseded from the start, so the
 * active list the other files screen with is not touched.
 */
let stack: TestStack;
let owner: { id: string; key: string };
let monitorId: string;
let watched: string;

beforeAll(async () => {
  stack = await startTestStack();
  owner = await stack.createUser({ credits: 20 });
}, 120_000);
const versions: number[] = [];
afterAll(async () => {
  // The versions made here go again: other files count and read list versions in the same database.
  if (stack && versions.length > 0) {
    await stack.pool.query('DELETE FROM list_version_notices WHERE version_id = ANY($1)', [versions]);
    await stack.pool.query('DELETE FROM list_changes WHERE version_id = ANY($1)', [versions]);
    await stack.pool.query('DELETE FROM list_versions WHERE id = ANY($1)', [versions]);
  }
  await stack?.stop();
});

async function until<T>(what: string, read: () => Promise<T | null | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Everything a monitor workflow or a notice could change, across every account (a forged input may name any). */
async function snapshot() {
  const { rows } = await stack.pool.query(
    `SELECT (SELECT json_agg(json_build_object('u', user_id, 'b', balance, 'r', reserved, 'd', debt) ORDER BY user_id)
               FROM credit_accounts) AS accounts,
            (SELECT count(*) FROM credit_transactions)::int AS transactions,
            (SELECT count(*) FROM credit_holds)::int AS holds,
            (SELECT count(*) FROM screening_jobs)::int AS jobs,
            (SELECT count(*) FROM monitor_alerts)::int AS alerts,
            (SELECT json_agg(json_build_object('id', id, 's', status, 'l', last_request_id) ORDER BY id)
               FROM monitors WHERE user_id = $1) AS monitors`,
    [owner.id],
  );
  return rows[0];
}

const taskQueue = () => stack.config.TEMPORAL_TASK_QUEUE;

/** A list version row of its own (never active) whose diff adds `address`: its notice touches that monitor. */
async function insertVersion(address: string, issueDate: string): Promise<number> {
  const { rows } = await stack.pool.query<{ id: string }>(
    `INSERT INTO list_versions (list, source, issue_date, sha256, entry_count, added, removed, changed, superseded_at)
     VALUES ('ofac', 'test: forged-monitor-workflows', $1, $2, 1, 1, 0, 0, now()) RETURNING id`,
    [issueDate, randomBytes(32).toString('hex')],
  );
  const id = Number(rows[0]!.id);
  versions.push(id);
  await stack.pool.query(
    `INSERT INTO list_changes (version_id, change, chain, address, sdn_uid, after)
     VALUES ($1, 'added', 'ethereum', $2, 'test-uid', '{}'::jsonb)`,
    [id, address],
  );
  return id;
}

/** A workflow started by hand must fail, naming MONITOR_WORKFLOW_NOT_AUTHENTIC, having done nothing. */
async function expectRefused(result: Promise<unknown>) {
  const err = await result.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowFailedError);
  // An activity's failure comes wrapped in an ActivityFailure; a local activity's (a re-screen step's) as it is.
  const cause = (err as WorkflowFailedError).cause;
  const refusal = (cause instanceof ActivityFailure ? cause.cause : cause) as ApplicationFailure;
  expect(refusal).toBeInstanceOf(ApplicationFailure);
  expect(refusal.type).toBe('MONITOR_WORKFLOW_NOT_AUTHENTIC');
  expect(refusal.nonRetryable).toBe(true);
}

const startMonitor = (workflowId: string, input: MonitorWorkflowInput) =>
  stack.temporal.workflow.start('monitorWorkflow', { workflowId, taskQueue: taskQueue(), args: [input] });
const runNotice = (workflowId: string, input: ListVersionNoticeInput) =>
  stack.temporal.workflow.execute('listVersionNoticeWorkflow', { workflowId, taskQueue: taskQueue(), args: [input] });

describe('monitor workflows started by hand with forged inputs', () => {
  beforeAll(async () => {
    watched = `0x${randomBytes(20).toString('hex')}`;
    const made = await stack.http('POST', '/api/v1/monitors', {
      key: owner.key,
      body: { chain: 'ethereum', address: watched },
    });
    expect(made.status).toBe(201);
    monitorId = made.body.data.id;
    await until('the baseline', async () => {
      const r = await stack.http('GET', `/api/v1/monitors/${monitorId}`, { key: owner.key });
      return r.body.data.last_result ? r.body.data : null;
    });
    await until('the baseline settled', async () => {
      const { rows } = await stack.pool.query('SELECT reserved::int FROM credit_accounts WHERE user_id = $1', [
        owner.id,
      ]);
      return rows[0]?.reserved === 0 ? true : null;
    });
  });

  test(
    'when monitorWorkflow is started for a made-up monitor, under a workflow id that is not monitor:<its id>, or ' +
      'for a deleted monitor, then it screens and charges nobody; a second start of a live one is refused',
    async () => {
      const before = await snapshot();
      const forged = (id: string): MonitorWorkflowInput => ({
        monitorId: id,
        userId: owner.id,
        chain: 'ethereum',
        everyHours: 1,
        firstRequestId: randomUUID(),
      });

      // A made-up monitor id, under the workflow id it implies.
      const madeUp = randomUUID();
      await expectRefused((await startMonitor(`monitor:${madeUp}`, forged(madeUp))).result());
      // The real monitor's id, under another workflow id.
      await expectRefused((await startMonitor(`forged-${randomUUID()}`, forged(monitorId))).result());
      // Not an id at all.
      await expectRefused((await startMonitor('monitor:not-a-uuid', forged('not-a-uuid'))).result());
      // The real monitor's own workflow id: Temporal refuses a second start while the api's runs.
      await expect(startMonitor(`monitor:${monitorId}`, forged(monitorId))).rejects.toBeInstanceOf(
        WorkflowExecutionAlreadyStartedError,
      );

      // A deleted monitor: its workflow ended, its id can be started again, and the run stops without screening.
      const other = await stack.http('POST', '/api/v1/monitors', {
        key: owner.key,
        body: { chain: 'ethereum', address: `0x${randomBytes(20).toString('hex')}` },
      });
      await until('its baseline settled', async () => {
        const { rows } = await stack.pool.query(
          `SELECT reserved::int, (SELECT last_screened_at FROM monitors WHERE id = $2) AS screened
           FROM credit_accounts WHERE user_id = $1`,
          [owner.id, other.body.data.id],
        );
        return rows[0]?.reserved === 0 && rows[0]?.screened ? true : null;
      });
      await stack.http('DELETE', `/api/v1/monitors/${other.body.data.id}`, { key: owner.key });
      const handle = stack.temporal.workflow.getHandle(`monitor:${other.body.data.id}`);
      await until('the deleted workflow to end', async () =>
        (await handle.describe()).status.name !== 'RUNNING' ? true : null,
      );
      const afterDelete = await snapshot();
      const rerun = await startMonitor(`monitor:${other.body.data.id}`, forged(other.body.data.id));
      await rerun.result();

      await new Promise((r) => setTimeout(r, 1_000));
      const after = await snapshot();
      expect(after).toEqual(afterDelete);
      // Between the two: only what the real second monitor did (created, screened once, deleted).
      expect(after.jobs - before.jobs).toBe(1);
      expect(after.holds).toBe(before.holds);
    },
  );

  test(
    'when a list version is noticed, then its monitors re-screen once; the notice started again by hand, for a ' +
      'made-up version, under another workflow id or with another issue date signals nobody',
    async () => {
      const versionId = await insertVersion(watched, '2020-01-02');
      const lastBefore = (await stack.http('GET', `/api/v1/monitors/${monitorId}`, { key: owner.key })).body.data
        .last_request_id;

      // The real notice, as the refresh or lists:update starts it: the watching monitor is re-screened.
      await noticeMonitors(stack.temporal, taskQueue(), { id: versionId, issueDate: '2020-01-02' } as Parameters<
        typeof noticeMonitors
      >[2]);
      expect(await stack.temporal.workflow.getHandle(`list-version:${versionId}`).result()).toBe(1);
      await until('the re-screen the notice asked for', async () => {
        const r = await stack.http('GET', `/api/v1/monitors/${monitorId}`, { key: owner.key });
        return r.body.data.last_request_id !== lastBefore ? r.body.data : null;
      });
      await until('it settled', async () => {
        const { rows } = await stack.pool.query('SELECT reserved::int FROM credit_accounts WHERE user_id = $1', [
          owner.id,
        ]);
        return rows[0]?.reserved === 0 ? true : null;
      });
      const before = await snapshot();

      // The same version's notice again, by hand (its first run ended, so Temporal lets the id run again).
      expect(await runNotice(`list-version:${versionId}`, { versionId, issueDate: '2020-01-02' })).toBe(0);
      // A version that does not exist.
      await expectRefused(runNotice('list-version:999999999', { versionId: 999_999_999, issueDate: '2020-01-02' }));
      // A real, never-noticed version under another workflow id, or with an issue date it does not have.
      const fresh = await insertVersion(watched, '2020-02-03');
      await expectRefused(runNotice(`forged-${randomUUID()}`, { versionId: fresh, issueDate: '2020-02-03' }));
      await expectRefused(runNotice(`list-version:${fresh}`, { versionId: fresh, issueDate: '1999-01-01' }));
      await expectRefused(
        runNotice(`list-version:${fresh}`, { versionId: `${fresh}` as unknown as number, issueDate: '2020-02-03' }),
      );

      await new Promise((r) => setTimeout(r, 2_000));
      expect(await snapshot()).toEqual(before);
      // The forged runs claimed nothing: the version's own notice still reaches its monitor, once.
      const { rows } = await stack.pool.query('SELECT version_id FROM list_version_notices WHERE version_id = $1', [
        fresh,
      ]);
      expect(rows).toEqual([]);
    },
  );
  test(
    'when a rescreen signal is sent by hand through the Temporal client, then nothing is screened or charged; ' +
      'the owner asking through the api still re-screens once',
    async () => {
      const current = async () =>
        (await stack.http('GET', `/api/v1/monitors/${monitorId}`, { key: owner.key })).body.data.last_request_id;
      const settled = () =>
        until('settled', async () => {
          const { rows } = await stack.pool.query('SELECT reserved::int FROM credit_accounts WHERE user_id = $1', [
            owner.id,
          ]);
          return rows[0]?.reserved === 0 ? true : null;
        });
      await settled();
      const lastBefore = await current();
      const before = await snapshot();

      const handle = stack.temporal.workflow.getHandle(`monitor:${monitorId}`);
      /** The prepares the workflow ran to completion: local activities' markers (or, on older runs, activities). */
      const prepares = async () => {
        const events = (await handle.fetchHistory()).events ?? [];
        const scheduled = new Set(
          events
            .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'prepareMonitorScreening')
            .map((e) => String(e.eventId)),
        );
        const activities = events.filter((e) =>
          scheduled.has(String(e.activityTaskCompletedEventAttributes?.scheduledEventId ?? '')),
        ).length;
        const markers = events
          .map((e) => e.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data)
          .filter((data): data is Uint8Array => !!data)
          .map((data) => JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type?: string })
          .filter((marker) => marker.activity_type === 'prepareMonitorScreening').length;
        return { scheduled: scheduled.size + markers, done: activities + markers };
      };
      const preparedBefore = (await prepares()).scheduled;
      for (let i = 0; i < 5; i++) await handle.signal('rescreen', { reason: `forged ${i}` });
      // The workflow woke, found no recorded request and no due schedule, and went back to waiting.
      await until('the forged wake-ups handled', async () => {
        const p = await prepares();
        return p.scheduled > preparedBefore && p.done === p.scheduled ? true : null;
      });
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await snapshot()).toEqual(before);
      expect(await current()).toBe(lastBefore);

      // The owner's request is recorded before its signal: that re-screen runs, and is paid for, once.
      const asked = await stack.http('POST', `/api/v1/monitors/${monitorId}/rescreen`, { key: owner.key });
      expect(asked.status).toBe(202);
      await until('the requested re-screen', async () => ((await current()) !== lastBefore ? true : null));
      await settled();
      const after = await snapshot();
      expect(after.jobs - before.jobs).toBe(1);
      const { rows } = await stack.pool.query(
        'SELECT count(*)::int AS pending FROM monitor_rescreen_requests WHERE monitor_id = $1 AND answered_by IS NULL',
        [monitorId],
      );
      expect(rows[0].pending).toBe(0);
    },
  );
});
