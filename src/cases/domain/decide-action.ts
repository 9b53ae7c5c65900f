import {
  type Actor,
  type CaseAction,
  type CaseSnapshot,
  type Disposition,
  higherSeverity,
  MAX_ATTACHED_JOBS,
  MAX_NOTE_LENGTH,
  needsFourEyes,
  nextSeverity,
} from './case-model';

/** Why an action is refused: `forbidden` is the actor's role or identity (403), `conflict` the case's state (409). */
export interface Refusal {
  refused: 'forbidden' | 'conflict' | 'invalid';
  message: string;
}

/** What closing a case does beyond the case: the suppression of its evidence, and for a true positive the blocklist. */
export interface ClosingEffect {
  disposition: Exclude<Disposition, 'escalated'>;
  fingerprint: string;
}

export interface Transition {
  next: CaseSnapshot;
  /** What the trail records of the action beyond before/after (the note, the comment, the job, the reason). */
  detail: Record<string, unknown>;
  closing: ClosingEffect | null;
  /** Escalated: by a member's disposition or by an SLA timer (a socket event tells the team). */
  escalated: boolean;
}

const refuse = (refused: Refusal['refused'], message: string): Refusal => ({ refused, message });
export const isRefusal = (r: Transition | Refusal | null): r is Refusal => r !== null && 'refused' in r;

const APPROVERS = new Set(['approver']);

function noteOf(note: string | null): Refusal | null {
  return note !== null && note.length > MAX_NOTE_LENGTH
    ? refuse('invalid', `a note holds at most ${MAX_NOTE_LENGTH} characters`)
    : null;
}

function closeWith(c: CaseSnapshot, disposition: Exclude<Disposition, 'escalated'>, by: string): Transition['next'] {
  return { ...c, state: 'closed', disposition, decidedBy: by, proposal: null };
}

/**
 * The one rule book of a case: whether `actor` may do `action` now, and the case after it. Pure, so the workflow's
 * update validator (early refusal), its handler (again, after the worker confirmed the actor's role) and the tests
 * all read the same rules. Returns null for an alert that changes nothing (the same evidence again).
 */
export function decideAction(c: CaseSnapshot, action: CaseAction, actor: Actor): Transition | Refusal | null {
  const plain = (next: CaseSnapshot, detail: Record<string, unknown> = {}): Transition => ({
    next,
    detail,
    closing: null,
    escalated: false,
  });
  if (action.action === 'alert') {
    const fresh = action.fingerprint !== c.fingerprint;
    const graver = higherSeverity(c.severity, action.severity) !== c.severity || (action.sanctions && !c.sanctions);
    if (c.state !== 'closed' && !fresh && !graver) return null;
    const jobs =
      action.requestId && !c.jobs.includes(action.requestId) && c.jobs.length < MAX_ATTACHED_JOBS
        ? [...c.jobs, action.requestId]
        : c.jobs;
    const base: CaseSnapshot = {
      ...c,
      fingerprint: action.fingerprint,
      severity: higherSeverity(c.severity, action.severity),
      sanctions: c.sanctions || action.sanctions,
      jobs,
    };
    const reopened: CaseSnapshot =
      c.state === 'closed'
        ? { ...base, state: 'open', assigneeId: null, disposition: null, decidedBy: null, proposal: null }
        : base;
    return plain(reopened, {
      source: action.source,
      request_id: action.requestId,
      new_evidence: fresh,
      reopened: c.state === 'closed',
    });
  }
  if (action.action === 'escalate') {
    if (c.state === 'closed') return refuse('conflict', 'a closed case does not escalate');
    return {
      ...plain({ ...c, severity: nextSeverity(c.severity), escalations: c.escalations + 1 }, { reason: action.reason }),
      escalated: true,
    };
  }
  if (actor.kind !== 'member') return refuse('forbidden', 'only a member of the team acts on a case');

  switch (action.action) {
    case 'assign':
      if (c.state !== 'open' && c.state !== 'assigned')
        return refuse('conflict', `a ${c.state} case cannot be assigned`);
      if (c.assigneeId === action.assigneeId) return refuse('conflict', 'the case is already assigned to that member');
      return plain({ ...c, state: 'assigned', assigneeId: action.assigneeId }, { assignee_id: action.assigneeId });
    case 'comment':
      if (action.text.trim() === '' || action.text.length > MAX_NOTE_LENGTH)
        return refuse('invalid', `a comment holds 1 to ${MAX_NOTE_LENGTH} characters`);
      return plain(c, { text: action.text });
    case 'attach_job':
      if (c.state === 'closed') return refuse('conflict', 'a closed case takes no new job: reopen it first');
      if (c.jobs.includes(action.requestId)) return refuse('conflict', 'that job is already attached');
      if (c.jobs.length >= MAX_ATTACHED_JOBS)
        return refuse('conflict', `a case holds at most ${MAX_ATTACHED_JOBS} jobs`);
      return plain({ ...c, jobs: [...c.jobs, action.requestId] }, { request_id: action.requestId });
    case 'propose': {
      const bad = noteOf(action.note);
      if (bad) return bad;
      if (c.state !== 'open' && c.state !== 'assigned')
        return refuse('conflict', `a ${c.state} case takes no proposal`);
      const detail = { disposition: action.disposition, note: action.note };
      if (action.disposition === 'escalated') {
        const next: CaseSnapshot = {
          ...c,
          state: 'open',
          assigneeId: null,
          severity: nextSeverity(c.severity),
          escalations: c.escalations + 1,
        };
        return { ...plain(next, detail), escalated: true };
      }
      if (needsFourEyes(c)) {
        const proposal = { disposition: action.disposition, note: action.note, memberId: actor.memberId };
        return plain({ ...c, state: 'proposed', proposal }, detail);
      }
      // Low and medium cases without sanctions: the proposer's decision closes them (the quick 95 %).
      return {
        ...plain(closeWith(c, action.disposition, actor.memberId), { ...detail, four_eyes: false }),
        closing: { disposition: action.disposition, fingerprint: c.fingerprint },
      };
    }
    case 'approve':
    case 'reject': {
      const bad = noteOf(action.note);
      if (bad) return bad;
      if (!APPROVERS.has(actor.role)) return refuse('forbidden', `only an approver may ${action.action} a proposal`);
      if (c.state !== 'proposed' || !c.proposal)
        return refuse('conflict', `a ${c.state} case has no proposal to ${action.action}`);
      if (c.proposal.memberId === actor.memberId)
        return refuse('forbidden', `four eyes: the member who proposed cannot ${action.action} it`);
      const detail = { disposition: c.proposal.disposition, proposed_by: c.proposal.memberId, note: action.note };
      if (action.action === 'reject')
        return plain({ ...c, state: 'assigned', assigneeId: c.proposal.memberId, proposal: null }, detail);
      const disposition = c.proposal.disposition as Exclude<Disposition, 'escalated'>;
      return {
        ...plain(closeWith(c, disposition, actor.memberId), detail),
        closing: { disposition, fingerprint: c.fingerprint },
      };
    }
    case 'reopen': {
      const bad = noteOf(action.note);
      if (bad) return bad;
      if (c.state !== 'closed') return refuse('conflict', `a ${c.state} case is not closed`);
      return plain(
        { ...c, state: 'open', assigneeId: null, disposition: null, decidedBy: null, proposal: null },
        { note: action.note },
      );
    }
  }
}
