import { type Column, DataTable } from '../components/data-table';
import { hrefFor } from '../hash-route';
import { utcMinuteOrDash } from '../markets/utc-time';
import { chainName } from '../screen/screen-words';
import { FourEyesMark, SeverityBadge, StateBadge } from './case-badges';
import type { CaseView } from './case-types';
import { dispositionWords } from './case-words';
import type { TeamNames } from './use-team';

const columnsFor = (names: TeamNames): Column<CaseView>[] => [
  {
    header: 'Subject',
    class: 'case-subject-cell',
    // The subject opens the case page: a plain link, so keyboard and new-tab work.
    cell: (c) => (
      <>
        <a href={hrefFor('cases', c.id)} class="mono">
          {c.subject}
        </a>
        <div class="hint">
          {chainName(c.chain)} {c.subject_kind === 'transaction' ? 'transaction' : 'address'}
          {c.sanctions ? ' · sanctions' : ''}
        </div>
      </>
    ),
  },
  {
    header: 'State',
    cell: (c) => (
      <>
        <StateBadge state={c.state} />
        {c.state === 'closed' && c.disposition && <div class="hint">{dispositionWords(c.disposition)}</div>}
      </>
    ),
  },
  {
    header: 'Severity',
    cell: (c) => (
      <>
        <SeverityBadge severity={c.severity} />
        {c.escalations > 0 && <div class="hint">escalated {c.escalations}×</div>}
      </>
    ),
  },
  {
    header: 'Sign-off',
    cell: (c) => (c.four_eyes ? <FourEyesMark fourEyes /> : <span class="hint">one member</span>),
  },
  {
    header: 'Assignee',
    testId: 'case-assignee',
    cell: (c) => (c.assignee_id ? names.nameOf(c.assignee_id) : <span class="hint">nobody</span>),
  },
  { header: 'Changed', cell: (c) => utcMinuteOrDash(c.updated_at) },
];

/** The queue as a table. */
export function CaseQueueTable({ cases, names }: { cases: CaseView[]; names: TeamNames }) {
  return (
    <DataTable
      class="wide-table case-queue"
      testId="case-queue"
      columns={columnsFor(names)}
      rows={cases}
      rowKey={(c) => c.id}
      rowAttributes={(c) => ({ 'data-testid': 'case-row', 'data-id': c.id })}
    />
  );
}
