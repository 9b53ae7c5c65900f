import { useState } from 'preact/hooks';
import { CasePage } from '../cases/case-page';
import { CaseQueue } from '../cases/case-queue';
import { type CaseFilters, NO_CASE_FILTERS } from '../cases/case-types';
import { useTeam } from '../cases/use-team';
import '../cases/cases.css';
import type { PanelProps } from './panel-props';

/**
 * The case queue (#/cases) and one case (#/cases/<id>). The filters and the page live here, so coming back from a case
 * shows the queue as it was left; the team (names, roles, assignees) is read once for both.
 */
export function CasesPanel({ route }: PanelProps) {
  const [filters, setFilters] = useState<CaseFilters>(NO_CASE_FILTERS);
  const [offset, setOffset] = useState(0);
  const names = useTeam();
  const [id] = route;
  if (id) return <CasePage key={id} caseId={id} names={names} />;
  return (
    <CaseQueue
      filters={filters}
      offset={offset}
      names={names}
      onFilters={(next) => {
        setFilters(next);
        setOffset(0);
      }}
      onOffset={setOffset}
    />
  );
}
