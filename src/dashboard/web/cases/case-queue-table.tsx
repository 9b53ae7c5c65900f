import { hrefFor } from '../hash-route';
import { utcMinuteOrDash } from '../markets/utc-time';
import { chainName } from '../screen/screen-words';
import { FourEyesMark, SeverityBadge, StateBadge } from './case-badges';
import type { CaseView } from './case-types';
import { dispositionWords } from './case-words';
import type { TeamNames } from './use-team';

/** The queue as a table (the dashboard's table styles): the subject opens the case page (a plain link). */
export function CaseQueueTable({ cases, names }: { cases: CaseView[]; names: TeamNames }) {
  return (
    <div class="table-scroll">
      <table class="wide-table case-queue" data-testid="case-queue">
        <thead>
          <tr>
            <th scope="col">Subject</th>
            <th scope="col">State</th>
            <th scope="col">Severity</th>
            <th scope="col">Sign-off</th>
            <th scope="col">Assignee</th>
            <th scope="col">Changed</th>
          </tr>
        </thead>
        <tbody>
          {cases.map((c) => (
            <tr key={c.id} data-testid="case-row" data-id={c.id}>
              <td class="case-subject-cell">
                <a href={hrefFor('cases', c.id)} class="mono">
                  {c.subject}
                </a>
                <div class="hint">
                  {chainName(c.chain)} {c.subject_kind === 'transaction' ? 'transaction' : 'address'}
                  {c.sanctions ? ' · sanctions' : ''}
                </div>
              </td>
              <td>
                <StateBadge state={c.state} />
                {c.state === 'closed' && c.disposition && <div class="hint">{dispositionWords(c.disposition)}</div>}
              </td>
              <td>
                <SeverityBadge severity={c.severity} />
                {c.escalations > 0 && <div class="hint">escalated {c.escalations}×</div>}
              </td>
              <td>{c.four_eyes ? <FourEyesMark fourEyes /> : <span class="hint">one member</span>}</td>
              <td data-testid="case-assignee">
                {c.assignee_id ? names.nameOf(c.assignee_id) : <span class="hint">nobody</span>}
              </td>
              <td>{utcMinuteOrDash(c.updated_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
