import { useState } from 'preact/hooks';
import { FieldError } from '../components/field-error';
import type { CaseActionSegment } from './case-api';
import type { CaseDetail, Disposition } from './case-types';
import { DISPOSITION_EFFECTS, DISPOSITION_WORDS, DISPOSITIONS, dispositionWords } from './case-words';
import type { TeamNames } from './use-team';

/** Sends one action at a time for the case page; the page shows the refusal or what was done. */
export interface ActionRunner {
  busy: CaseActionSegment | null;
  /** Sends the action; true once it is recorded, false when refused (the page shows the refusal). */
  run(action: CaseActionSegment, body: Record<string, unknown>, done: string): Promise<boolean>;
}

interface Props {
  detail: CaseDetail;
  names: TeamNames;
  runner: ActionRunner;
}

const text = (e: Event) => (e.target as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement).value;
const noteOrNull = (note: string) => (note.trim() ? note.trim() : null);

/** A labelled optional note (propose, approve, reject, reopen). */
function NoteField({
  id,
  label,
  value,
  onInput,
}: {
  id: string;
  label: string;
  value: string;
  onInput: (v: string) => void;
}) {
  return (
    <>
      <label for={id}>{label}</label>
      <textarea id={id} rows={2} maxLength={4000} value={value} onInput={(e) => onInput(text(e))} />
    </>
  );
}

/** Take it, or assign it to another active member (an open or assigned case). */
export function AssignControls({ detail, names, runner }: Props) {
  const [chosen, setChosen] = useState('');
  const mine = detail.assignee_id === names.myId;
  const others = names.active.filter((m) => m.id !== detail.assignee_id);
  const assign = async (event: Event) => {
    event.preventDefault();
    if (!chosen) return;
    if (await runner.run('assign', { assignee_id: chosen }, `Assigned to ${names.nameOf(chosen)}.`)) setChosen('');
  };
  return (
    <div class="case-action" data-testid="case-assign">
      <h3>Assignment</h3>
      <div class="form-actions">
        {!mine && (
          <button
            type="button"
            disabled={runner.busy !== null}
            onClick={() => void runner.run('assign', { assignee_id: 'me' }, 'You took the case.')}
          >
            {runner.busy === 'assign' ? 'Taking…' : 'Take it'}
          </button>
        )}
        {mine && <span class="hint">You have it. Hand it on below, or propose a decision.</span>}
      </div>
      {others.length > 0 && (
        <form class="inline-form" onSubmit={assign} aria-label="Assign the case">
          <div class="inline-form-field">
            <label for="case-assignee">Assign to</label>
            <select id="case-assignee" value={chosen} onChange={(e) => setChosen(text(e))}>
              <option value="">Choose a member</option>
              {others.map((m) => (
                <option key={m.id} value={m.id}>
                  {names.nameWithRole(m.id)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" class="secondary" disabled={!chosen || runner.busy !== null}>
            Assign
          </button>
        </form>
      )}
    </div>
  );
}

/** Propose a disposition with a note (an open or assigned case). */
export function ProposeForm({ detail, runner }: Props) {
  const [disposition, setDisposition] = useState<Disposition>('false_positive');
  const [note, setNote] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    const words = DISPOSITION_WORDS[disposition].toLowerCase();
    const done =
      disposition === 'escalated'
        ? 'You escalated the case: it is back in the queue, one severity higher.'
        : detail.four_eyes
          ? `You proposed ${words}: an approver other than you decides.`
          : `You decided ${words}: the case is closed.`;
    if (await runner.run('propose', { disposition, note: noteOrNull(note) }, done)) setNote('');
  };
  return (
    <form class="case-action" onSubmit={submit} data-testid="case-propose" aria-labelledby="case-propose-title">
      <h3 id="case-propose-title">Propose a decision</h3>
      <p class="hint">
        {detail.four_eyes
          ? 'Four eyes: a false or true positive closes this case only when an approver other than you approves it.'
          : 'A false or true positive closes this case at once: no second member is needed at this severity.'}
      </p>
      <fieldset class="choice">
        <legend>Disposition</legend>
        {DISPOSITIONS.map((d) => (
          <label key={d} class="case-choice">
            <input
              type="radio"
              name="case-disposition"
              value={d}
              checked={disposition === d}
              onChange={() => setDisposition(d)}
            />
            <span>
              <strong>{DISPOSITION_WORDS[d]}</strong> <span class="hint">{DISPOSITION_EFFECTS[d]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <NoteField id="case-propose-note" label="Note (optional)" value={note} onInput={setNote} />
      <div class="form-actions">
        <button type="submit" disabled={runner.busy !== null}>
          {runner.busy === 'propose' ? 'Proposing…' : 'Propose'}
        </button>
      </div>
    </form>
  );
}

/** Why this member may not approve or reject the proposal, or null when they may. */
function decisionBar(detail: CaseDetail, names: TeamNames): string | null {
  if (detail.proposal?.proposed_by === names.myId)
    return 'Four eyes: you proposed this, so an approver other than you approves or rejects it.';
  if (names.myRole !== 'approver') return 'Only a member with the approver role approves or rejects a proposal.';
  return null;
}

/** The proposal waiting for a decision, with Approve and Reject (disabled, with the reason, for whom may not). */
export function DecideControls({ detail, names, runner }: Props) {
  const [note, setNote] = useState('');
  const proposal = detail.proposal;
  if (!proposal) return null;
  const bar = decisionBar(detail, names);
  const words = dispositionWords(proposal.disposition).toLowerCase();
  const decide = async (action: 'approve' | 'reject') => {
    const done =
      action === 'approve'
        ? `You approved ${words}: the case is closed.`
        : 'You rejected the proposal: it goes back to its proposer.';
    if (await runner.run(action, { note: noteOrNull(note) }, done)) setNote('');
  };
  return (
    <div class="case-action case-decision" data-testid="case-decide">
      <h3>Decide the proposal</h3>
      <p data-testid="case-proposal">
        <strong>{dispositionWords(proposal.disposition)}</strong>, proposed by {names.nameOf(proposal.proposed_by)}
        {proposal.note ? <>: “{proposal.note}”</> : '.'}
      </p>
      {bar && (
        <p id="case-decide-bar" class="hint" data-testid="case-decide-bar">
          {bar}
        </p>
      )}
      {!bar && <NoteField id="case-decide-note" label="Note (optional)" value={note} onInput={setNote} />}
      <div class="form-actions">
        <button
          type="button"
          disabled={bar !== null || runner.busy !== null}
          aria-describedby={bar ? 'case-decide-bar' : undefined}
          onClick={() => void decide('approve')}
        >
          {runner.busy === 'approve' ? 'Approving…' : 'Approve'}
        </button>
        <button
          type="button"
          class="secondary"
          disabled={bar !== null || runner.busy !== null}
          aria-describedby={bar ? 'case-decide-bar' : undefined}
          onClick={() => void decide('reject')}
        >
          {runner.busy === 'reject' ? 'Rejecting…' : 'Reject'}
        </button>
      </div>
    </div>
  );
}

/** Reopen a closed case, with an optional note. */
export function ReopenForm({ runner }: Props) {
  const [note, setNote] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await runner.run('reopen', { note: noteOrNull(note) }, 'You reopened the case: it is back in the queue.'))
      setNote('');
  };
  return (
    <form class="case-action" onSubmit={submit} data-testid="case-reopen" aria-labelledby="case-reopen-title">
      <h3 id="case-reopen-title">Reopen</h3>
      <p class="hint">The case goes back to the queue, unassigned; its trail keeps the decision.</p>
      <NoteField id="case-reopen-note" label="Why (optional)" value={note} onInput={setNote} />
      <div class="form-actions">
        <button type="submit" class="secondary" disabled={runner.busy !== null}>
          {runner.busy === 'reopen' ? 'Reopening…' : 'Reopen'}
        </button>
      </div>
    </form>
  );
}

/** A comment on the case, in any state (the trail keeps it). */
export function CommentForm({ runner }: Pick<Props, 'runner'>) {
  const [comment, setComment] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = comment.trim();
    setMissing(!trimmed);
    if (!trimmed) return;
    if (await runner.run('comment', { text: trimmed }, 'Your comment was added to the trail.')) setComment('');
  };
  return (
    <form
      class="case-action"
      onSubmit={submit}
      data-testid="case-comment"
      aria-labelledby="case-comment-title"
      noValidate
    >
      <h3 id="case-comment-title">Comment</h3>
      <label for="case-comment-text">Your comment</label>
      <textarea
        id="case-comment-text"
        rows={3}
        maxLength={4000}
        value={comment}
        aria-invalid={missing ? 'true' : undefined}
        aria-describedby={missing ? 'case-comment-error' : undefined}
        onInput={(e) => {
          setComment(text(e));
          setMissing(false);
        }}
      />
      <FieldError id="case-comment-error" text={missing ? 'Write the comment first.' : undefined} />
      <div class="form-actions">
        <button type="submit" class="secondary" disabled={runner.busy !== null}>
          {runner.busy === 'comment' ? 'Adding…' : 'Add comment'}
        </button>
      </div>
    </form>
  );
}
