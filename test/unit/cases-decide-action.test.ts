import type { Actor, CaseSnapshot } from '../../src/cases/domain/case-model';
import { decideAction, isRefusal, type Transition } from '../../src/cases/domain/decide-action';
import { slaDeadline } from '../../src/cases/domain/sla';
import { validActionRequest } from '../../src/cases/domain/valid-action-request';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const analyst: Actor = { kind: 'member', memberId: A, role: 'analyst' };
const approverB: Actor = { kind: 'member', memberId: B, role: 'approver' };
const approverA: Actor = { kind: 'member', memberId: A, role: 'approver' };
const system: Actor = { kind: 'system' };

const base = (over: Partial<CaseSnapshot> = {}): CaseSnapshot => ({
  state: 'open',
  severity: 'high',
  sanctions: true,
  assigneeId: null,
  proposal: null,
  disposition: null,
  decidedBy: null,
  fingerprint: 'f1',
  escalations: 0,
  jobs: [],
  ...over,
});

const ok = (r: ReturnType<typeof decideAction>): Transition => {
  if (r === null || isRefusal(r)) throw new Error(`expected a transition, got ${JSON.stringify(r)}`);
  return r;
};

describe('decideAction: the rule book of a case', () => {
  test('when a high case is proposed, then it waits for an approver other than the proposer', () => {
    const proposed = ok(
      decideAction(base(), { action: 'propose', disposition: 'false_positive', note: null }, analyst),
    );
    expect(proposed.next).toMatchObject({ state: 'proposed', proposal: { memberId: A } });
    expect(proposed.closing).toBeNull();

    expect(decideAction(proposed.next, { action: 'approve', note: null }, analyst)).toMatchObject({
      refused: 'forbidden',
    });
    // Four eyes hold even for a proposer who is an approver.
    const own = decideAction(
      ok(decideAction(base(), { action: 'propose', disposition: 'true_positive', note: null }, approverA)).next,
      { action: 'approve', note: null },
      approverA,
    );
    expect(own).toMatchObject({ refused: 'forbidden' });

    const approved = ok(decideAction(proposed.next, { action: 'approve', note: 'ok' }, approverB));
    expect(approved.next).toMatchObject({
      state: 'closed',
      disposition: 'false_positive',
      decidedBy: B,
      proposal: null,
    });
    expect(approved.closing).toEqual({ disposition: 'false_positive', fingerprint: 'f1' });
    expect(decideAction(approved.next, { action: 'approve', note: null }, approverB)).toMatchObject({
      refused: 'conflict',
    });
  });

  test('when a low case without sanctions is proposed, then the proposal closes it at once', () => {
    const t = ok(
      decideAction(
        base({ severity: 'medium', sanctions: false }),
        { action: 'propose', disposition: 'true_positive', note: null },
        analyst,
      ),
    );
    expect(t.next).toMatchObject({ state: 'closed', disposition: 'true_positive', decidedBy: A });
    expect(t.closing?.disposition).toBe('true_positive');
  });

  test('when escalated is proposed, then the case goes back to the queue one severity up', () => {
    const t = ok(
      decideAction(
        base({ state: 'assigned', assigneeId: A }),
        { action: 'propose', disposition: 'escalated', note: null },
        analyst,
      ),
    );
    expect(t.next).toMatchObject({ state: 'open', assigneeId: null, severity: 'critical', escalations: 1 });
    expect(t.escalated).toBe(true);
  });

  test('when a rejection comes, then the case goes back to its proposer; the proposer cannot reject it', () => {
    const proposed = ok(
      decideAction(base(), { action: 'propose', disposition: 'false_positive', note: null }, analyst),
    ).next;
    expect(decideAction(proposed, { action: 'reject', note: null }, analyst)).toMatchObject({ refused: 'forbidden' });
    expect(ok(decideAction(proposed, { action: 'reject', note: 'no' }, approverB)).next).toMatchObject({
      state: 'assigned',
      assigneeId: A,
      proposal: null,
    });
  });

  test(
    'when the same evidence alerts an open case, ' + 'then nothing changes; new evidence or a graver one is recorded',
    () => {
      const same = {
        action: 'alert' as const,
        fingerprint: 'f1',
        severity: 'high' as const,
        sanctions: true,
        requestId: null,
        source: 'job' as const,
      };
      expect(decideAction(base(), same, system)).toBeNull();
      expect(ok(decideAction(base(), { ...same, fingerprint: 'f2' }, system)).next.fingerprint).toBe('f2');
      expect(ok(decideAction(base({ severity: 'medium', sanctions: false }), same, system)).next).toMatchObject({
        severity: 'high',
        sanctions: true,
      });
    },
  );

  test('when an alert reaches a closed case, then it reopens (the suppression was checked before)', () => {
    const closed = base({ state: 'closed', disposition: 'false_positive', decidedBy: B, assigneeId: A });
    const t = ok(
      decideAction(
        closed,
        { action: 'alert', fingerprint: 'f2', severity: 'high', sanctions: true, requestId: 'r', source: 'job' },
        system,
      ),
    );
    expect(t.next).toMatchObject({ state: 'open', disposition: null, decidedBy: null, assigneeId: null, jobs: ['r'] });
    expect(t.detail).toMatchObject({ reopened: true, new_evidence: true });
  });

  test('when members act on a state that forbids it, then conflict; the system cannot act as a member', () => {
    const closed = base({ state: 'closed' });
    expect(decideAction(closed, { action: 'assign', assigneeId: A }, analyst)).toMatchObject({ refused: 'conflict' });
    expect(decideAction(closed, { action: 'attach_job', requestId: 'r' }, analyst)).toMatchObject({
      refused: 'conflict',
    });
    expect(decideAction(base(), { action: 'reopen', note: null }, analyst)).toMatchObject({ refused: 'conflict' });
    expect(decideAction(closed, { action: 'escalate', reason: 'undecided' }, system)).toMatchObject({
      refused: 'conflict',
    });
    expect(decideAction(base(), { action: 'comment', text: 'x' }, system)).toMatchObject({ refused: 'forbidden' });
    expect(decideAction(base(), { action: 'comment', text: '  ' }, analyst)).toMatchObject({ refused: 'invalid' });
    // Comments are allowed in every state, a closed case included.
    expect(ok(decideAction(closed, { action: 'comment', text: 'note' }, analyst)).next).toEqual(closed);
  });
});

describe('slaDeadline', () => {
  const sla = {
    low: { assignWithin: 10, decideWithin: 100 },
    medium: { assignWithin: 10, decideWithin: 100 },
    high: { assignWithin: 2, decideWithin: 60 },
    critical: { assignWithin: 1, decideWithin: 1 },
  };
  test('when unassigned, the assign deadline; once assigned, the decide deadline; none when closed or critical', () => {
    expect(slaDeadline(base(), sla, 0)).toEqual({ at: 2000, reason: 'unassigned' });
    expect(slaDeadline(base({ state: 'assigned', assigneeId: A }), sla, 0)).toEqual({
      at: 60_000,
      reason: 'undecided',
    });
    expect(slaDeadline(base({ state: 'closed' }), sla, 0)).toBeNull();
    expect(slaDeadline(base({ severity: 'critical' }), sla, 0)).toBeNull();
  });
});

describe('validActionRequest', () => {
  test('when an update is malformed, then it says what is wrong; a good one passes', () => {
    const good = { memberId: A, role: 'analyst', action: { action: 'comment', text: 'hi' } };
    expect(validActionRequest('comment', good)).toBeNull();
    expect(validActionRequest('approve', good)).toMatch(/not approve/);
    expect(validActionRequest('comment', { ...good, role: 'owner' })).toMatch(/role/);
    expect(validActionRequest('comment', { ...good, memberId: 'x' })).toMatch(/memberId/);
    expect(validActionRequest('propose', { ...good, action: { action: 'propose', disposition: 'maybe' } })).toMatch(
      /disposition/,
    );
    expect(validActionRequest('assign', null)).toMatch(/object/);
  });
});
