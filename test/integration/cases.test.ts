import path from 'node:path';
import { verifyCaseTrail } from '../../src/cases/trail/verify-trail';
import { applyListIssue } from '../../src/lists/apply-list-issue';
import { readBundledOfac } from '../../src/lists/bundled-ofac';
import { createListStore } from '../../src/lists/list-store';
import { noticeMonitors } from '../../src/lists/notify-monitors';
import { refreshOfacList } from '../../src/lists/refresh-list';
import { createLogger } from '../../src/platform/logging/logger';
import { connectRecording, type RecordingSocket } from '../helpers/realtime-client';
import { createTeam, removeMember, type TestTeam } from '../helpers/teams';
import { startTestStack, type TestStack } from '../helpers/test-stack';
import { until } from '../helpers/until';

/**
 * Cases on a real stack (issue 30's walk-through): a list update alerts a monitor and a case opens; an analyst takes
 * it and proposes; the proposer's own approval is refused (four eyes), an approver's closes it; the same evidence
 * again opens nothing, a new hit reopens it; an SLA of seconds escalates it; the trail verifies and a changed entry
 * breaks it. Then: another team sees nothing, a removed member is refused, 20 identical alerts open one case, and two
 * approvals at once record one. The run's database is shared: the shipped list is made active again afterwards.
 */
const DATA = path.join(__dirname, '..', '..', 'data', 'risk');
const fixture = (date: string) => path.join(__dirname, '..', 'fixtures', 'ofac', `sdn_advanced-${date}.trimmed.xml.gz`);
// Listed on 2025-11-19 (Sokolovski, Rolan), not by 2025-03-21, and on no other list or label set.
const NEWLY_LISTED = '0x5d5b5dafecbf31bdb08bfd3edad4f2694372d0ef';
// Listed in the shipped list (the README's walk-through address).
const LISTED = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c';
const log = createLogger('silent');

async function load(date: string, force: boolean) {
  const outcome = await refreshOfacList(
    { pool: stack.pool, lists: createListStore(stack.pool), log },
    { list: 'ofac', source: fixture(date), force },
  );
  expect(outcome.status).toBe('applied');
  if (outcome.status === 'applied')
    await noticeMonitors(stack.temporal, stack.config.TEMPORAL_TASK_QUEUE, outcome.version);
}

let stack: TestStack;
let team: TestTeam;
let other: TestTeam;
let socket: RecordingSocket;

const member = (role: string, nth = 0) => team.members.filter((m) => m.role === role)[nth] as TestTeam['members'][0];

const caseOf = async (subject: string, key = member('analyst').key) => {
  const r = await stack.http('GET', `/api/v1/cases?subject=${subject}`, { key });
  expect(r.status).toBe(200);
  return r.body.data[0] as Record<string, any> | undefined;
};
const detail = async (id: string, key = member('analyst').key) =>
  (await stack.http('GET', `/api/v1/cases/${id}`, { key })).body;
const act = (id: string, action: string, key: string, body: unknown = {}, headers: Record<string, string> = {}) =>
  stack.http('POST', `/api/v1/cases/${id}/${action}`, { key, body, headers });

async function screen(address: string, key: string): Promise<string> {
  const r = await stack.http('POST', '/api/v1/kyt/job', { key, body: { chain: 'ethereum', address } });
  expect(r.status).toBe(202);
  const id = r.body.data.request_id as string;
  await until(`job ${id}`, async () => {
    const p = await stack.http('GET', `/api/v1/kyt/job/${id}`, { key });
    return p.body.data?.status === 'completed';
  });
  return id;
}

beforeAll(async () => {
  stack = await startTestStack();
  team = await createTeam(stack, { roles: ['admin', 'analyst', 'approver', 'approver'], credits: 200 });
  other = await createTeam(stack, { roles: ['admin'], credits: 10 });
  socket = await connectRecording(stack.api.url, member('analyst').key);
  // The list as it was before the address was listed.
  await load('2025-03-21', true);
}, 120_000);

afterAll(async () => {
  socket?.close();
  if (stack)
    await applyListIssue({ pool: stack.pool, lists: createListStore(stack.pool) }, await readBundledOfac(DATA));
  await stack?.stop();
});

describe('cases', () => {
  let caseId: string;

  test('when a list update alerts a monitor, then a sanctions case opens for its address', async () => {
    // Arrange: a monitor of an address the shipped list does not name (baseline LOW, no case)
    const created = await stack.http('POST', '/api/v1/monitors', {
      key: member('analyst').key,
      body: { chain: 'ethereum', address: NEWLY_LISTED, alert_level: 'MEDIUM' },
    });
    expect(created.status).toBe(201);
    await until('the baseline', async () => {
      const r = await stack.http('GET', `/api/v1/monitors/${created.body.data.id}`, { key: member('analyst').key });
      return r.body.data?.last_result;
    });
    expect(await caseOf(NEWLY_LISTED)).toBeUndefined();

    // Act: the issue that lists it
    await load('2025-11-19', false);

    // Assert
    const opened = await until('the case', async () => {
      const c = await caseOf(NEWLY_LISTED);
      return c && c.trail_length >= 1 ? c : null;
    });
    caseId = opened.id;
    expect(opened).toMatchObject({ state: 'open', sanctions: true, four_eyes: true, subject_kind: 'address' });
    expect(['high', 'critical']).toContain(opened.severity);
    // The re-screen's job alerts as it settles; the monitor's own risk_changed alert joins the case a moment later.
    const body = await until('the monitor alert', async () => {
      const d = await detail(caseId);
      return d.data.alerts.some((a: { source: string }) => a.source === 'monitor') ? d : null;
    });
    expect(body.data.trail[0]).toMatchObject({ seq: 1, action: 'alert', actor: { kind: 'system' } });
    expect(body.data.alerts.map((a: { source: string }) => a.source)).toEqual(
      expect.arrayContaining(['job', 'monitor']),
    );
    await socket.waitFor('case_updated', (p) => p.caseId === caseId, 10_000);
  }, 90_000);

  test('when analyst A proposes false_positive, then A cannot approve it (403) and approver B closes it', async () => {
    const a = member('analyst');
    const b = member('approver');
    const taken = await act(caseId, 'assign', a.key, { assignee_id: 'me' });
    expect(taken.status).toBe(200);
    expect(taken.body.data).toMatchObject({ state: 'assigned', assignee_id: a.memberId });

    const proposed = await act(caseId, 'propose', a.key, {
      disposition: 'false_positive',
      note: 'same name, not them',
    });
    expect(proposed.status).toBe(200);
    expect(proposed.body.data).toMatchObject({ state: 'proposed', proposal: { proposed_by: a.memberId } });

    const own = await act(caseId, 'approve', a.key, {});
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('CASE_ACTION_FORBIDDEN');

    const approved = await act(caseId, 'approve', b.key, { note: 'agreed' });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({
      state: 'closed',
      disposition: 'false_positive',
      decided_by: b.memberId,
    });

    // A state that forbids the action: 409
    const again = await act(caseId, 'approve', member('approver', 1).key, {});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CASE_STATE_CONFLICT');
  }, 60_000);

  test('when the same evidence comes again, then nothing opens; a new hit reopens the case', async () => {
    const before = await caseOf(NEWLY_LISTED);
    await screen(NEWLY_LISTED, member('analyst').key);
    await until('the suppressed alert', async () => {
      const { rows } = await stack.pool.query('SELECT 1 FROM case_alerts WHERE case_id = $1 AND suppressed', [caseId]);
      return rows.length > 0;
    });
    expect(await caseOf(NEWLY_LISTED)).toMatchObject({ state: 'closed', trail_length: before?.trail_length });

    // An SLA of seconds for what the reopened case will be, set before the new hit
    const sla = await stack.http('PUT', '/api/v1/cases/sla', {
      key: member('admin').key,
      body: { high: { assign_within: 2, decide_within: 600 } },
    });
    expect(sla.status).toBe(200);
    expect(sla.body.data.high).toEqual({ assign_within: 2, decide_within: 600 });
    expect(
      (await stack.http('PUT', '/api/v1/cases/sla', { key: member('analyst').key, body: sla.body.data })).status,
    ).toBe(403);

    // A new hit: the team's own list now names the address too
    const label = await stack.http('POST', '/api/v1/custom-labels', {
      key: member('analyst').key,
      body: { chain: 'ethereum', address: NEWLY_LISTED, category: 'scam', name: 'reported by a customer' },
    });
    expect(label.status).toBe(201);
    await screen(NEWLY_LISTED, member('analyst').key);
    const reopened = await until('the reopened case', async () => {
      const c = await caseOf(NEWLY_LISTED);
      return c && c.state !== 'closed' ? c : null;
    });
    expect(reopened.id).toBe(caseId);
    // (Its 2 s SLA may already have escalated it too: look for the reopening entry, not only at the last one.)
    const entries = (await detail(caseId)).data.trail as { action: string; detail: Record<string, unknown> }[];
    const reopening = entries.filter((e) => e.action === 'alert' && e.detail.reopened === true);
    expect(reopening).toHaveLength(1);
    expect(reopening[0]?.detail).toMatchObject({ new_evidence: true, request_id: expect.any(String) });
  }, 90_000);

  test('when an SLA of seconds passes untouched, ' +
    'then the case escalates one severity and the team is told', async () => {
    const escalated = await until(
      'the escalation',
      async () => {
        const c = await caseOf(NEWLY_LISTED);
        return c && c.escalations >= 1 ? c : null;
      },
      20_000,
    );
    expect(escalated.severity).toBe('critical');
    await socket.waitFor('case_escalated', (p) => p.caseId === caseId, 10_000);
    const last = (await detail(caseId)).data.trail.at(-1);
    expect(last).toMatchObject({ action: 'escalate', actor: { kind: 'system' }, detail: { reason: 'unassigned' } });
  }, 60_000);

  test('when the trail is checked, then it verifies, and changing one entry breaks it', async () => {
    const body = await detail(caseId);
    const jwks = (await stack.http('GET', '/.well-known/jwks.json')).body;
    const verified = await verifyCaseTrail(body, jwks);
    expect(verified.entries).toBe(body.data.trail.length);
    expect(verified.head).toBe(body.data.trail_head);

    const forged = structuredClone(body);
    forged.data.trail[1].detail = { ...forged.data.trail[1].detail, note: 'rewritten' };
    await expect(verifyCaseTrail(forged, jwks)).rejects.toThrow(/entry 2/);
    const dropped = structuredClone(body);
    dropped.data.trail.splice(1, 1);
    await expect(verifyCaseTrail(dropped, jwks)).rejects.toThrow();
    // The table itself refuses a change.
    await expect(stack.pool.query('UPDATE case_trail SET entry = entry WHERE case_id = $1', [caseId])).rejects.toThrow(
      /append-only/,
    );
  });

  test('when another team asks, then it sees none of it (404)', async () => {
    const key = other.members[0]?.key as string;
    expect((await stack.http('GET', `/api/v1/cases/${caseId}`, { key })).status).toBe(404);
    expect((await act(caseId, 'comment', key, { text: 'hello' })).status).toBe(404);
    expect((await stack.http('GET', '/api/v1/cases', { key })).body.data).toEqual([]);
  });

  test('when bad input arrives, then 400 naming the field, never 500', async () => {
    const key = member('analyst').key;
    expect((await act(caseId, 'propose', key, { disposition: 'maybe' })).status).toBe(400);
    expect((await act(caseId, 'comment', key, { text: '' })).status).toBe(400);
    expect((await act(caseId, 'assign', key, { assignee_id: other.members[0]?.memberId })).status).toBe(400);
    expect((await act(caseId, 'attach', key, { request_id: 'nope' })).status).toBe(400);
    expect((await stack.http('GET', '/api/v1/cases?state=weird', { key })).status).toBe(400);
    expect((await stack.http('GET', '/api/v1/cases/not-a-uuid', { key })).status).toBe(404);
  });

  test('when 20 identical alerts arrive at once, ' +
    'then one case opens, and two approvals at once record one', async () => {
    const a = member('analyst');
    const ids = await Promise.all(Array.from({ length: 20 }, () => screen(LISTED, a.key)));
    expect(new Set(ids).size).toBe(20);
    const opened = await until('the one case', async () => {
      const { rows } = await stack.pool.query(
        'SELECT count(*)::int AS n FROM case_alerts a JOIN cases c ON c.id = a.case_id ' +
          'WHERE c.user_id = $1 AND c.subject = $2',
        [team.accountId, LISTED],
      );
      return rows[0].n >= 20 ? caseOf(LISTED) : null;
    });
    const { rows } = await stack.pool.query('SELECT id FROM cases WHERE user_id = $1 AND subject = $2', [
      team.accountId,
      LISTED,
    ]);
    expect(rows).toHaveLength(1);
    await until('the first entry', async () => (await caseOf(LISTED))?.trail_length >= 1);
    expect((await detail(opened?.id)).data.trail.filter((e: { action: string }) => e.action === 'alert')).toHaveLength(
      1,
    );

    const id = opened?.id as string;
    expect((await act(id, 'propose', a.key, { disposition: 'true_positive', note: 'listed' })).status).toBe(200);
    const answers = await Promise.all([
      act(id, 'approve', member('approver', 0).key, {}),
      act(id, 'approve', member('approver', 1).key, {}),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const trail = (await detail(id)).data.trail;
    expect(trail.filter((e: { action: string }) => e.action === 'approve')).toHaveLength(1);
    expect(await caseOf(LISTED)).toMatchObject({ state: 'closed', disposition: 'true_positive', sar_ready: true });
    const labels = await until('the blocklist entry', async () => {
      const r = await stack.http('GET', `/api/v1/custom-labels?chain=ethereum&address=${LISTED}`, { key: a.key });
      return r.body.data.length > 0 ? r.body.data : null;
    });
    expect(labels[0]).toMatchObject({ address: LISTED, category: 'sanctions' });

    // A rescore of one of the jobs is an alert too: the same evidence, so the true positive suppresses it.
    const rescored = await stack.http('POST', `/api/v1/kyt/job/${ids[0]}/rescore`, { key: a.key, body: {} });
    expect(rescored.status).toBe(200);
    const { rows: rescoreAlerts } = await stack.pool.query(
      `SELECT suppressed FROM case_alerts WHERE case_id = $1 AND source = 'rescore'`,
      [id],
    );
    expect(rescoreAlerts).toEqual([{ suppressed: true }]);
    expect(await caseOf(LISTED)).toMatchObject({ state: 'closed' });
  }, 120_000);

  test('when an action is retried with the same Idempotency-Key, then it is recorded once', async () => {
    const a = member('analyst');
    const headers = { 'Idempotency-Key': `comment-${caseId}` };
    const first = await act(caseId, 'comment', a.key, { text: 'checked the counterparty' }, headers);
    const second = await act(caseId, 'comment', a.key, { text: 'checked the counterparty' }, headers);
    expect([first.status, second.status]).toEqual([200, 200]);
    const comments = (await detail(caseId)).data.trail.filter((e: { action: string }) => e.action === 'comment');
    expect(comments).toHaveLength(1);
    // The same key with another action is another action.
    const assigned = await act(caseId, 'assign', a.key, { assignee_id: 'me' }, headers);
    expect(assigned.status).toBe(200);
    expect(assigned.body.data).toMatchObject({ state: 'assigned', assignee_id: a.memberId });
  });

  test('when a member is removed, then their key is refused at once', async () => {
    const a = member('analyst');
    expect((await stack.http('GET', '/api/v1/cases', { key: a.key })).status).toBe(200);
    await removeMember(stack, team.accountId, a.memberId);
    expect((await stack.http('GET', '/api/v1/cases', { key: a.key })).status).toBe(401);
    expect((await act(caseId, 'comment', a.key, { text: 'still here?' })).status).toBe(401);
  });
});
