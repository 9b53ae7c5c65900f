import { Fragment, type ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import { useSession } from '../context';
import { hrefFor } from '../hash-route';
import { utcMinuteOrDash } from '../markets/utc-time';
import { chainName } from '../screen/screen-words';
import {
  type ActionRunner,
  AssignControls,
  CommentForm,
  DecideControls,
  ProposeForm,
  ReopenForm,
} from './case-actions';
import { CaseAlerts } from './case-alerts';
import { type CaseActionSegment, casePath } from './case-api';
import { FourEyesMark, SeverityBadge, StateBadge } from './case-badges';
import { CaseTrail } from './case-trail';
import { DownloadFile } from '../components/download-file';
import type { CaseDetail } from './case-types';
import { dispositionWords, shortHash } from './case-words';
import { useCase } from './use-case';
import type { TeamNames } from './use-team';

function CaseFacts({ detail, names }: { detail: CaseDetail; names: TeamNames }) {
  const p = detail.proposal;
  const facts: [string, ComponentChildren, string][] = [
    ['Subject', <span class="mono">{detail.subject}</span>, 'subject'],
    ['Chain', `${chainName(detail.chain)} ${detail.subject_kind}`, 'chain'],
    ['State', <StateBadge state={detail.state} explain />, 'state'],
    [
      'Severity',
      <>
        <SeverityBadge severity={detail.severity} />
        {detail.sanctions && <span class="case-tag">sanctions</span>}
        <FourEyesMark fourEyes={detail.four_eyes} />
        {detail.escalations > 0 && <span class="hint"> escalated {detail.escalations}×</span>}
      </>,
      'severity',
    ],
    ['Assignee', detail.assignee_id ? names.nameOf(detail.assignee_id) : <span class="hint">nobody</span>, 'assignee'],
    [
      'Proposal',
      p ? (
        <>
          <strong>{dispositionWords(p.disposition)}</strong> by {names.nameOf(p.proposed_by)}
          {p.note ? <>: “{p.note}”</> : ''}
        </>
      ) : (
        <span class="hint">none</span>
      ),
      'proposal',
    ],
    [
      'Disposition',
      detail.disposition ? (
        <>
          <strong>{dispositionWords(detail.disposition)}</strong>
          {detail.decided_by ? `, decided by ${names.nameOf(detail.decided_by)}` : ''}
          {detail.closed_at ? ` on ${utcMinuteOrDash(detail.closed_at)}` : ''}
          {detail.sar_ready ? ' · the case file is ready for a suspicious-activity report' : ''}
        </>
      ) : (
        <span class="hint">not decided</span>
      ),
      'disposition',
    ],
    ['Jobs attached', detail.jobs.length === 0 ? 'none' : String(detail.jobs.length), 'jobs'],
    ['Opened', utcMinuteOrDash(detail.opened_at), 'opened'],
    ['Changed', utcMinuteOrDash(detail.updated_at), 'updated'],
    [
      'Trail',
      <>
        {detail.trail_length} {detail.trail_length === 1 ? 'entry' : 'entries'}
        {detail.trail_head && (
          <>
            , head{' '}
            <span class="mono" title={detail.trail_head}>
              {shortHash(detail.trail_head)}
            </span>
          </>
        )}
      </>,
      'trail',
    ],
  ];
  return (
    <dl class="detail-facts case-facts" data-testid="case-facts">
      {facts.map(([term, value, field]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd data-field={field}>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** The API's refusal of the last action, in its own words (an ApiError's message), until the next action. */
function Refusal({ error }: { error: unknown }) {
  if (!error) return null;
  if (!(error instanceof ApiError)) return <ErrorNotice error={error} />;
  return (
    <p class="notice notice-error" role="alert">
      Refused: {error.message}
    </p>
  );
}

/** The actions this member may take in this state; approve and reject are shown disabled, with why, to whom may not. */
function CaseActions({ detail, names, runner }: { detail: CaseDetail; names: TeamNames; runner: ActionRunner }) {
  const { state } = detail;
  return (
    <div class="case-actions">
      {(state === 'open' || state === 'assigned') && <AssignControls detail={detail} names={names} runner={runner} />}
      {state === 'proposed' && <DecideControls detail={detail} names={names} runner={runner} />}
      {(state === 'open' || state === 'assigned') && <ProposeForm detail={detail} names={names} runner={runner} />}
      {state === 'closed' && <ReopenForm detail={detail} names={names} runner={runner} />}
      <CommentForm runner={runner} />
    </div>
  );
}

/**
 * One case (#/cases/<id>): its subject, state, severity, assignee, proposal and disposition; the actions this member
 * may take; the audit trail as a timeline; its alerts. A change by anyone (another member, an alert, an SLA timer)
 * appears without a reload. A refusal of the API stays in its own words until the next action, even when the page is
 * refreshed by an event meanwhile.
 */
export function CasePage({ caseId, names }: { caseId: string; names: TeamNames }) {
  const { me } = useSession();
  const { detail, error, announcement, act } = useCase(caseId);
  const [busy, setBusy] = useState<CaseActionSegment | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  // What this member's last action did, until the trail moves past it (another member's change, an alert).
  const [done, setDone] = useState<{ text: string; seq: number } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [caseId]);

  const run = useCallback(
    async (action: CaseActionSegment, body: Record<string, unknown>, words: string) => {
      setBusy(action);
      setRefusal(null);
      setDone(null);
      try {
        const after = await act(action, body);
        setDone({ text: words, seq: after.trail_length });
        return true;
      } catch (err) {
        setRefusal(err);
        return false;
      } finally {
        setBusy(null);
      }
    },
    [act],
  );
  const runner: ActionRunner = { busy, run };
  const doneText = done && detail && detail.trail_length <= done.seq ? done.text : '';
  const readOnly = !me.scopes.includes('screening');
  const missing = error instanceof ApiError && error.status === 404;

  return (
    <>
      <section aria-labelledby="case-title" data-testid="case-page" aria-busy={detail || error ? 'false' : 'true'}>
        <p>
          <a href={hrefFor('cases')}>← Back to the queue</a>
        </p>
        <h1 id="case-title" tabIndex={-1} ref={heading}>
          Case{detail ? ' of ' : ''}
          {detail && <span class="mono">{detail.subject}</span>}
        </h1>
        {missing ? (
          <p class="notice notice-error" role="alert">
            Your team has no case with this id. The link may be mistyped, or the case belongs to another account.
          </p>
        ) : (
          <ErrorNotice error={detail ? null : error} />
        )}
        <p class="visually-hidden" role="status">
          {announcement}
        </p>
        {!detail && !error && <p role="status">Loading the case…</p>}
        {detail && <CaseFacts detail={detail} names={names} />}
        {detail && (
          <p>
            <DownloadFile
              path={`${casePath(detail.id)}/file`}
              fileName={`case-${detail.id}.pdf`}
              label="Download the case file (PDF)"
            />
          </p>
        )}
        {detail && error && <ErrorNotice error={error} />}
      </section>
      {detail && (
        <section aria-labelledby="case-act-title" data-testid="case-act">
          <h2 id="case-act-title">Act on the case</h2>
          <p class="hint">
            You act as {names.myName}, {names.myRole}. Every action is recorded in the trail below, signed and chained
            to the one before.
          </p>
          <div data-testid="case-refusal">
            <Refusal error={refusal} />
          </div>
          <p role="status" class={doneText ? 'notice' : 'visually-hidden'} data-testid="case-done">
            {doneText}
          </p>
          {readOnly ? (
            <p class="hint">This key may only read: acting on a case needs the screening scope.</p>
          ) : (
            <CaseActions detail={detail} names={names} runner={runner} />
          )}
        </section>
      )}
      {detail && (
        <section aria-labelledby="case-trail-title">
          <h2 id="case-trail-title">Audit trail</h2>
          <p class="hint">
            Oldest first. Each entry is hash-chained to the one before and signed with the evidence key; check the whole
            trail with <span class="mono">npm run evidence:verify</span> on the answer of{' '}
            <span class="mono">GET /api/v1/cases/{detail.id}</span>.
          </p>
          <CaseTrail trail={detail.trail} names={names} />
        </section>
      )}
      {detail && (
        <section aria-labelledby="case-alerts-title">
          <h2 id="case-alerts-title">Alerts</h2>
          <CaseAlerts alerts={detail.alerts} />
        </section>
      )}
    </>
  );
}
