import path from 'node:path';
import { applyListIssue } from '../../src/lists/apply-list-issue';
import { readBundledOfac } from '../../src/lists/bundled-ofac';
import { createListStore } from '../../src/lists/list-store';
import { noticeMonitors } from '../../src/lists/notify-monitors';
import { refreshOfacList } from '../../src/lists/refresh-list';
import { createLogger } from '../../src/platform/logging/logger';
import { connectRecording, type RecordingSocket } from '../helpers/realtime-client';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * Monitors on a real stack: list versions loaded one after another (real OFAC issues, trimmed), the monitors they
 * touch re-screened through the notice workflow, alerts stored and pushed as risk_changed. The run's database is
 * shared, so the shipped list is made the active version again afterwards.
 */
const DATA = path.join(__dirname, '..', '..', 'data', 'risk');
const fixture = (date: string) => path.join(__dirname, '..', 'fixtures', 'ofac', `sdn_advanced-${date}.trimmed.xml.gz`);
// Tornado Cash addresses, listed in 2025-03-04, delisted by 2025-03-21.
const TORNADO_A = '0x01e2919679362dfbc9ee1644ba9c6da6d6245bb1';
const TORNADO_B = '0x03893a7c7463ae47d46bc7f091665f1893656003';
const UNRELATED = '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h'; // an OFAC-listed bitcoin address 2025-03-21 leaves alone
const log = createLogger('silent');

let stack: TestStack;
let user: { id: string; key: string };
let socket: RecordingSocket;

async function load(date: string, force = false) {
  const lists = createListStore(stack.pool);
  const outcome = await refreshOfacList(
    { pool: stack.pool, lists, log },
    { list: 'ofac', source: fixture(date), force },
  );
  if (outcome.status === 'applied')
    await noticeMonitors(stack.temporal, stack.config.TEMPORAL_TASK_QUEUE, outcome.version);
  return outcome;
}

async function until<T>(what: string, read: () => Promise<T | null | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const screened = (id: string, key = user.key) =>
  until(`monitor ${id} screened`, async () => {
    const r = await stack.http('GET', `/api/v1/monitors/${id}`, { key });
    return r.body.data?.last_result ? r.body.data : null;
  });

async function createMonitor(chain: string, address: string, key = user.key) {
  const r = await stack.http('POST', '/api/v1/monitors', { key, body: { chain, address, alert_level: 'MEDIUM' } });
  expect(r.status).toBe(201);
  return r.body.data.id as string;
}

beforeAll(async () => {
  stack = await startTestStack();
  user = await stack.createUser({ credits: 50 });
  socket = await connectRecording(stack.api.url, user.key);
  await load('2025-03-04', true);
}, 120_000);

afterAll(async () => {
  socket?.close();
  // The shipped list (newer than any fixture) becomes the active version again for the files that follow.
  if (stack)
    await applyListIssue({ pool: stack.pool, lists: createListStore(stack.pool) }, await readBundledOfac(DATA));
  await stack?.stop();
});

describe('monitors', () => {
  let tornadoA: string;
  let tornadoB: string;
  let unrelated: string;

  test('when monitors are created, then each is screened at once as its baseline and alerts nothing', async () => {
    tornadoA = await createMonitor('ethereum', TORNADO_A);
    tornadoB = await createMonitor('ethereum', TORNADO_B);
    unrelated = await createMonitor('bitcoin', UNRELATED);
    const [a, , u] = await Promise.all([screened(tornadoA), screened(tornadoB), screened(unrelated)]);
    expect(a.last_result).toMatchObject({ risk_level: 'HIGH', sanctioned: true });
    expect(u.last_result.risk_level).toBeDefined();
    for (const id of [tornadoA, tornadoB, unrelated]) {
      const alerts = await stack.http('GET', `/api/v1/monitors/${id}/alerts`, { key: user.key });
      expect(alerts.body.data).toEqual([]);
    }
    // Each baseline is a screening job of the owner: charged, and in the history.
    const job = await stack.http('GET', `/api/v1/kyt/job/${a.last_request_id}`, { key: user.key });
    expect(job.body.data).toMatchObject({ status: 'completed', credits_charged: 1 });
  });

  test(
    'when 2025-03-21 delists Tornado Cash, then exactly ' + 'its two monitors alert risk_changed within 10 s',
    async () => {
      const started = Date.now();
      const outcome = await load('2025-03-21');
      expect(outcome.status).toBe('applied');
      const events = await Promise.all(
        [tornadoA, tornadoB].map((id) => socket.waitFor('risk_changed', (p) => p.monitorId === id, 10_000)),
      );
      expect(Date.now() - started).toBeLessThan(10_000);
      for (const event of events) {
        expect(event).toMatchObject({
          chain: 'ethereum',
          before: { sanctioned: true },
          after: { sanctioned: false },
          reason: expect.stringContaining('no longer on a sanctions list'),
          request_id: expect.any(String),
        });
      }
      await new Promise((r) => setTimeout(r, 1_500));
      expect(socket.received.filter((e) => e.event === 'risk_changed')).toHaveLength(2);
      const alerts = await stack.http('GET', `/api/v1/monitors/${tornadoA}/alerts`, { key: user.key });
      expect(alerts.body.data).toEqual([
        expect.objectContaining({ kind: 'risk_changed', before: expect.objectContaining({ sanctioned: true }) }),
      ]);
      const none = await stack.http('GET', `/api/v1/monitors/${unrelated}/alerts`, { key: user.key });
      expect(none.body.data).toEqual([]);
    },
  );

  test('when 2025-03-21 is loaded again, then nothing is re-screened and nothing alerts', async () => {
    const before = (await stack.http('GET', `/api/v1/monitors/${tornadoA}`, { key: user.key })).body.data;
    const outcome = await load('2025-03-21');
    expect(outcome.status).toBe('unchanged');
    await new Promise((r) => setTimeout(r, 2_000));
    expect(socket.received.filter((e) => e.event === 'risk_changed')).toHaveLength(2);
    const after = (await stack.http('GET', `/api/v1/monitors/${tornadoA}`, { key: user.key })).body.data;
    expect(after.last_request_id).toBe(before.last_request_id);
  });

  test('when a re-screen is asked for and nothing changed, then it runs and alerts nothing', async () => {
    const before = (await stack.http('GET', `/api/v1/monitors/${unrelated}`, { key: user.key })).body.data;
    const asked = await stack.http('POST', `/api/v1/monitors/${unrelated}/rescreen`, { key: user.key });
    expect(asked.status).toBe(202);
    await until('a new re-screen', async () => {
      const now = (await stack.http('GET', `/api/v1/monitors/${unrelated}`, { key: user.key })).body.data;
      return now.last_request_id !== before.last_request_id ? now : null;
    });
    const alerts = await stack.http('GET', `/api/v1/monitors/${unrelated}/alerts`, { key: user.key });
    expect(alerts.body.data).toEqual([]);
  });

  test('when twenty identical creates arrive at once, then one monitor exists', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        stack.http('POST', '/api/v1/monitors', {
          key: user.key,
          body: { chain: 'bitcoin', address: '1HmqvgSXUVES1jn4TQPzk9dxo1NE8wim2T' },
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(19).fill(200), 201]);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    await screened(answers[0]!.body.data.id);
  });

  test('when a monitor is deleted, then it is gone for its owner and its workflow stops', async () => {
    const deleted = await stack.http('DELETE', `/api/v1/monitors/${unrelated}`, { key: user.key });
    expect([deleted.status, deleted.body.data]).toEqual([200, { id: unrelated, deleted: true }]);
    expect((await stack.http('GET', `/api/v1/monitors/${unrelated}`, { key: user.key })).status).toBe(404);
    const handle = stack.temporal.workflow.getHandle(`monitor:${unrelated}`);
    await until('the monitor workflow to end', async () =>
      (await handle.describe()).status.name !== 'RUNNING' ? true : null,
    );
  });

  test(
    'when the owner cannot pay for a re-screen, then the monitor pauses ' +
      'with an alert saying so, and resumes after a grant',
    async () => {
      // One credit: the create holds it for the baseline, which spends it; the re-screen asked next cannot pay.
      const poor = await stack.createUser({ credits: 1 });
      const admin = await stack.createUser({ role: 'admin' });
      const created = await stack.http('POST', '/api/v1/monitors', {
        key: poor.key,
        body: { chain: 'ethereum', address: TORNADO_A },
      });
      expect(created.status).toBe(201);
      const id = created.body.data.id as string;
      const baseline = await screened(id, poor.key);
      expect((await stack.stores.credits.balance(poor.id)).available).toBe(0);
      expect((await stack.http('POST', `/api/v1/monitors/${id}/rescreen`, { key: poor.key })).status).toBe(202);
      const paused = await until('the monitor to pause', async () => {
        const r = await stack.http('GET', `/api/v1/monitors/${id}`, { key: poor.key });
        return r.body.data.status === 'paused' ? r.body.data : null;
      });
      expect(paused.paused_reason).toMatch(/cannot pay/);
      const alerts = await stack.http('GET', `/api/v1/monitors/${id}/alerts`, { key: poor.key });
      expect(alerts.body.data).toEqual([expect.objectContaining({ kind: 'paused' })]);

      const grant = await stack.http('POST', '/api/v1/credits/grant', {
        key: admin.key,
        body: { userId: poor.id, amount: 5, idempotencyKey: `monitor-resume-${id}` },
      });
      expect(grant.status).toBe(200);
      const resumed = await until('a re-screen after the grant', async () => {
        const r = await stack.http('GET', `/api/v1/monitors/${id}`, { key: poor.key });
        return r.body.data.last_request_id !== baseline.last_request_id ? r.body.data : null;
      });
      expect(resumed.status).toBe('active');
      const after = await stack.http('GET', `/api/v1/monitors/${id}/alerts`, { key: poor.key });
      expect(after.body.data.map((a: { kind: string }) => a.kind)).toEqual(['resumed', 'paused']);
    },
  );

  test('when a monitor is asked for with bad input, then 400 naming the field, 404 for unknown ids', async () => {
    const bad = await stack.http('POST', '/api/v1/monitors', {
      key: user.key,
      body: { chain: 'ethereum', address: 'nope' },
    });
    expect([bad.status, bad.body.error?.details?.parameter]).toEqual([400, 'address']);
    const level = await stack.http('POST', '/api/v1/monitors', {
      key: user.key,
      body: { chain: 'ethereum', address: TORNADO_A, alert_level: 'SEVERE' },
    });
    expect([level.status, level.body.error?.details?.parameter]).toEqual([400, 'alert_level']);
    expect((await stack.http('GET', '/api/v1/monitors/not-a-uuid', { key: user.key })).status).toBe(404);
    const other = await stack.createUser({ credits: 0 });
    expect((await stack.http('GET', `/api/v1/monitors/${tornadoA}`, { key: other.key })).status).toBe(404);
    expect((await stack.http('GET', '/api/v1/monitors?limit=0x10', { key: user.key })).status).toBe(400);
  });
});
