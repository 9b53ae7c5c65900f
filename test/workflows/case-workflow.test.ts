/**
 * caseWorkflow on a dev server of its own, with stubbed activities: two approvals at once record one, the proposer's
 * own approval is refused, an untouched case escalates on its SLA timer, a member the worker no
 * longer finds is refused with nothing recorded, and a closed case's next run (update-with-start) reopens it.
 */
import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import type { CaseSnapshot } from '../../src/cases/domain/case-model';
import type { PendingTrailEntry } from '../../src/cases/workflow-types';
import type { History } from './history-json';
import { useStubbedWorker } from './workflow-test-env';

const testbed = useStubbedWorker(['loadCase', 'confirmActor', 'appendCaseEntries']);

const ANALYST = '11111111-1111-4111-8111-111111111111';
const APPROVER_1 = '22222222-2222-4222-8222-222222222222';
const APPROVER_2 = '33333333-3333-4333-8333-333333333333';
const ROLES: Record<string, string> = { [ANALYST]: 'analyst', [APPROVER_1]: 'approver', [APPROVER_2]: 'approver' };

const snapshot = (over: Partial<CaseSnapshot> = {}): CaseSnapshot => ({
  state: 'open',
  severity: 'high',
  sanctions: true,
  assigneeId: null,
  proposal: null,
  disposition: null,
  decidedBy: null,
  fingerprint: 'fp-0',
  escalations: 0,
  jobs: [],
  ...over,
});

/** Stubs over an in-memory trail: loadCase answers what the last appendCaseEntries left. */
function caseStubs(start: CaseSnapshot, slaSeconds = 86_400) {
  const entries: PendingTrailEntry[] = [];
  let current = start;
  const removed = new Set<string>();
  const stubs = {
    loadCase: async () => ({
      snapshot: current,
      trailLength: entries.length,
      slaSince: new Date().toISOString(),
      sla: Object.fromEntries(
        ['low', 'medium', 'high', 'critical'].map((s) => [s, { assignWithin: slaSeconds, decideWithin: 86_400 }]),
      ),
      appliedUpdateIds: entries.map((e) => e.updateId).filter(Boolean),
    }),
    confirmActor: async ({ memberId }: { memberId: string }) => {
      if (removed.has(memberId)) {
        const { ApplicationFailure } = await import('@temporalio/common');
        throw ApplicationFailure.nonRetryable(
          'Only an active member of the team acts on its cases',
          'CASE_ACTION_FORBIDDEN',
        );
      }
      return { role: ROLES[memberId] };
    },
    appendCaseEntries: async ({ entries: batch }: { entries: PendingTrailEntry[] }) => {
      for (const e of batch) if (e.seq === entries.length + 1) entries.push(e);
      current = entries.at(-1)?.after ?? current;
      return batch.length;
    },
  };
  return { stubs, entries, removed, current: () => current };
}

function start(input = { caseId: `case-${randomUUID()}`, accountId: 'acct-1' }) {
  return testbed.env.client.workflow.start('caseWorkflow', {
    taskQueue: testbed.worker.taskQueue,
    workflowId: `case:${input.caseId}`,
    args: [input],
  });
}

const request = (memberId: string, action: Record<string, unknown>) => ({ memberId, role: ROLES[memberId], action });
const codeOf = (err: unknown) => ((err as WorkflowUpdateFailedError).cause as { type?: string } | undefined)?.type;

test('when two approvers approve at once, then one approval is recorded and the other is refused 409', async () => {
  const c = caseStubs(
    snapshot({
      state: 'proposed',
      assigneeId: ANALYST,
      proposal: { disposition: 'false_positive', note: null, memberId: ANALYST },
    }),
  );
  testbed.worker.use(c.stubs);
  const handle = await start();

  const own = handle.executeUpdate('approve', { args: [request(ANALYST, { action: 'approve', note: null })] });
  await expect(own).rejects.toBeInstanceOf(WorkflowUpdateFailedError);
  expect(codeOf(await own.catch((e) => e))).toBe('CASE_ACTION_FORBIDDEN');

  const results = await Promise.allSettled([
    handle.executeUpdate('approve', { args: [request(APPROVER_1, { action: 'approve', note: null })] }),
    handle.executeUpdate('approve', { args: [request(APPROVER_2, { action: 'approve', note: null })] }),
  ]);
  expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
  expect(codeOf(refused.reason)).toBe('CASE_STATE_CONFLICT');
  await handle.result();

  expect(c.entries.map((e) => e.action)).toEqual(['approve']);
  expect(c.entries[0]?.after).toMatchObject({ state: 'closed', disposition: 'false_positive' });
  expect(c.entries[0]?.closing).toEqual({ disposition: 'false_positive', fingerprint: 'fp-0' });
  // Of the three approvals, exactly one completed with a result; the others failed or were rejected.
  const history: History = await handle.fetchHistory();
  const completed = (history.events ?? []).filter((e) => e.workflowExecutionUpdateCompletedEventAttributes);
  expect(completed.filter((e) => !e.workflowExecutionUpdateCompletedEventAttributes?.outcome?.failure)).toHaveLength(1);
});

test('when nobody takes a case within its SLA, then the timer escalates it one severity', async () => {
  const c = caseStubs(snapshot({ severity: 'medium', sanctions: false }), 1);
  testbed.worker.use(c.stubs);
  const handle = await start();
  const deadline = Date.now() + 15_000;
  while (!c.entries.some((e) => e.action === 'escalate') && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  const escalation = c.entries.find((e) => e.action === 'escalate');
  expect(escalation).toMatchObject({ actor: { kind: 'system' }, escalated: true, detail: { reason: 'unassigned' } });
  expect(escalation?.after).toMatchObject({ severity: 'high', escalations: 1 });
  await handle.terminate('done');
});

test('when the worker no longer finds the member, then the action is refused and nothing is recorded', async () => {
  const c = caseStubs(snapshot());
  c.removed.add(ANALYST);
  testbed.worker.use(c.stubs);
  const handle = await start();
  const refused = await handle
    .executeUpdate('comment', { args: [request(ANALYST, { action: 'comment', text: 'hello' })] })
    .catch((e) => e);
  expect(codeOf(refused)).toBe('CASE_ACTION_FORBIDDEN');
  expect(c.entries).toEqual([]);
  await handle.terminate('done');
});

test(
  'when a closed case is reopened, ' + 'then update-with-start runs it again from its mirror and reopens it',
  async () => {
    const c = caseStubs(snapshot({ state: 'closed', disposition: 'false_positive', decidedBy: APPROVER_1 }));
    testbed.worker.use(c.stubs);
    const input = { caseId: `case-${randomUUID()}`, accountId: 'acct-1' };
    const operation = () =>
      new WithStartWorkflowOperation('caseWorkflow', {
        taskQueue: testbed.worker.taskQueue,
        workflowId: `case:${input.caseId}`,
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
    const result = await testbed.env.client.workflow.executeUpdateWithStart('reopen', {
      args: [request(ANALYST, { action: 'reopen', note: 'new facts' })],
      startWorkflowOperation: operation(),
    });
    expect(result).toMatchObject({ trailLength: 1, snapshot: { state: 'open', disposition: null } });
    expect(c.entries.map((e) => e.action)).toEqual(['reopen']);
  },
);

test('when the history grows long, then the case continues as new from its mirror and loses no action', async () => {
  const c = caseStubs(snapshot({ severity: 'medium', sanctions: false }));
  testbed.worker.use(c.stubs);
  const input = { caseId: `case-${randomUUID()}`, accountId: 'acct-1', continueAsNewAfterEvents: 200 };
  const handle = await start(input);
  for (let i = 0; i < 45; i++) {
    const start = new WithStartWorkflowOperation('caseWorkflow', {
      taskQueue: testbed.worker.taskQueue,
      workflowId: `case:${input.caseId}`,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    await testbed.env.client.workflow.executeUpdateWithStart('comment', {
      args: [request(ANALYST, { action: 'comment', text: `comment ${i}` })],
      startWorkflowOperation: start,
    });
  }
  expect(c.entries.map((e) => e.seq)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
  expect(c.entries.map((e) => e.detail.text)).toEqual(Array.from({ length: 45 }, (_, i) => `comment ${i}`));
  const first: History = await testbed.env.client.workflow
    .getHandle(handle.workflowId, handle.firstExecutionRunId)
    .fetchHistory();
  const last = first.events?.at(-1);
  expect(last?.workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();
  await testbed.env.client.workflow.getHandle(handle.workflowId).terminate('done');
});

test('when a retry of a recorded action reaches the next run, then it is answered and not applied again', async () => {
  const c = caseStubs(snapshot({ state: 'closed', disposition: 'false_positive', decidedBy: APPROVER_1 }));
  testbed.worker.use(c.stubs);
  const input = { caseId: `case-${randomUUID()}`, accountId: 'acct-1' };
  const send = (updateId: string, text: string) =>
    testbed.env.client.workflow.executeUpdateWithStart('comment', {
      args: [request(ANALYST, { action: 'comment', text })],
      updateId,
      startWorkflowOperation: new WithStartWorkflowOperation('caseWorkflow', {
        taskQueue: testbed.worker.taskQueue,
        workflowId: `case:${input.caseId}`,
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
      }),
    });
  // A comment on a closed case: its run records it and ends, so each send below starts a run of its own.
  await send('key-1', 'first');
  await testbed.env.client.workflow.getHandle(`case:${input.caseId}`).result();
  const again = await send('key-1', 'first');
  await send('key-2', 'second');
  expect(c.entries.map((e) => [e.seq, e.detail.text, e.updateId])).toEqual([
    [1, 'first', 'key-1'],
    [2, 'second', 'key-2'],
  ]);
  expect(again).toMatchObject({ trailLength: 1 });
});
