import { utcMinute } from '../markets/utc-time';
import type { TrailEntry } from './case-types';
import { dispositionWords, SOURCE_WORDS, shortHash } from './case-words';
import type { TeamNames } from './use-team';

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** What one entry did, in words: a title and the lines under it (notes, comments, reasons). */
export function trailWords(entry: TrailEntry, names: TeamNames): { title: string; lines: string[] } {
  const d = entry.detail;
  const note = str(d.note);
  const withNote = (lines: string[]) => (note ? [...lines, `Note: “${note}”`] : lines);
  switch (entry.action) {
    case 'alert': {
      const source = SOURCE_WORDS[str(d.source) ?? ''] ?? str(d.source) ?? 'an alert';
      const title = d.reopened ? `Reopened by new evidence from ${source}` : `Alert from ${source}`;
      const lines = [d.new_evidence ? 'New evidence.' : 'Graver evidence than before.'];
      const requestId = str(d.request_id);
      return { title, lines: requestId ? [...lines, `Request id ${requestId}`] : lines };
    }
    case 'escalate':
      return {
        title: `Escalated to ${String(entry.after.severity ?? '').toUpperCase()} by its SLA`,
        lines: [d.reason === 'unassigned' ? 'Nobody took it in time.' : 'It was not decided in time.'],
      };
    case 'assign':
      return { title: `Assigned to ${names.nameOf(str(d.assignee_id))}`, lines: [] };
    case 'comment':
      return { title: 'Commented', lines: [`“${str(d.text) ?? ''}”`] };
    case 'attach_job':
      return { title: 'Attached a job', lines: [`Request id ${str(d.request_id) ?? ''}`] };
    case 'propose':
      if (d.disposition === 'escalated')
        return {
          title: `Escalated to ${String(entry.after.severity ?? '').toUpperCase()}`,
          lines: withNote(['Back to the queue, unassigned.']),
        };
      return {
        title: `Proposed ${dispositionWords(str(d.disposition)).toLowerCase()}`,
        lines: withNote(d.four_eyes === false ? ['No second member needed: this closed the case.'] : []),
      };
    case 'approve':
      return {
        title: `Approved ${dispositionWords(str(d.disposition)).toLowerCase()}`,
        lines: withNote([`Proposed by ${names.nameOf(str(d.proposed_by))}.`]),
      };
    case 'reject':
      return {
        title: `Rejected ${dispositionWords(str(d.disposition)).toLowerCase()}`,
        lines: withNote([`Back to ${names.nameOf(str(d.proposed_by))}, who proposed it.`]),
      };
    case 'reopen':
      return { title: 'Reopened', lines: withNote([]) };
    default:
      return { title: entry.action.replace(/_/g, ' '), lines: [] };
  }
}

/** "assigned → proposed", and the severity when it moved: the state change an entry recorded. */
function changeWords(entry: TrailEntry): string | null {
  const before = entry.before as { state?: string; severity?: string } | null;
  const after = entry.after as { state?: string; severity?: string };
  const parts: string[] = [];
  if (!before) parts.push(`opened ${after.state ?? ''}, ${String(after.severity ?? '').toUpperCase()}`);
  else {
    if (before.state !== after.state) parts.push(`${before.state} → ${after.state}`);
    if (before.severity !== after.severity)
      parts.push(`${String(before.severity).toUpperCase()} → ${String(after.severity).toUpperCase()}`);
  }
  return parts.length ? parts.join(', ') : null;
}

/**
 * The audit trail as a timeline, oldest first: who (a member and the role the worker confirmed, or the case's own
 * machinery), when, what, the state it moved, and the start of the entry's hash (each entry is chained to the one
 * before and signed; `npm run evidence:verify` checks the whole trail of GET /api/v1/cases/:id).
 */
export function CaseTrail({ trail, names }: { trail: TrailEntry[]; names: TeamNames }) {
  if (trail.length === 0) return <p class="hint">Nothing recorded yet.</p>;
  return (
    <ol class="case-trail" data-testid="case-trail">
      {trail.map((entry) => {
        const { title, lines } = trailWords(entry, names);
        const change = changeWords(entry);
        const actor = entry.actor;
        const who =
          actor.kind === 'member' && actor.member_id ? names.nameWithRole(actor.member_id, actor.role) : 'the system';
        return (
          <li
            key={entry.seq}
            class={`trail-entry trail-${entry.action}`}
            data-testid="trail-entry"
            data-seq={entry.seq}
          >
            <p class="alert-title">
              <strong data-testid="trail-what">{title}</strong>
              <time dateTime={entry.at}>{utcMinute(entry.at)} UTC</time>
            </p>
            <p class="trail-who" data-testid="trail-who">
              by {who}
            </p>
            {lines.map((line) => (
              <p key={line} class="trail-line">
                {line}
              </p>
            ))}
            <p class="hint trail-meta">
              #{entry.seq}
              {change ? ` · ${change}` : ''} · hash{' '}
              <span class="mono" title={entry.hash} data-testid="trail-hash">
                {shortHash(entry.hash)}
              </span>
            </p>
          </li>
        );
      })}
    </ol>
  );
}
