import { ErrorNotice } from '../components/error-notice';
import { QUEUE_PAGE_SIZE } from './case-api';
import { CaseQueueTable } from './case-queue-table';
import { type CaseFilters, NO_CASE_FILTERS } from './case-types';
import { CASE_SEVERITIES, CASE_STATES } from './case-words';
import { useCaseQueue } from './use-case-queue';
import type { TeamNames } from './use-team';

const isFiltered = (f: CaseFilters) => f.state !== '' || f.severity !== '' || f.mine;

/** The filters of the queue, applied as they change (three controls: no Apply button to miss). */
function QueueFilters({ filters, onChange }: { filters: CaseFilters; onChange: (next: CaseFilters) => void }) {
  const value = (e: Event) => (e.target as HTMLSelectElement).value;
  return (
    <form class="filters" aria-label="Filter the queue" onSubmit={(e) => e.preventDefault()}>
      <div class="form-grid">
        <div>
          <label for="case-filter-state">State</label>
          <select
            id="case-filter-state"
            value={filters.state}
            onChange={(e) => onChange({ ...filters, state: value(e) as CaseFilters['state'] })}
          >
            <option value="">Any state</option>
            {CASE_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="case-filter-severity">Severity</label>
          <select
            id="case-filter-severity"
            value={filters.severity}
            onChange={(e) => onChange({ ...filters, severity: value(e) as CaseFilters['severity'] })}
          >
            <option value="">Any severity</option>
            {CASE_SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s.toUpperCase()}
              </option>
            ))}
          </select>
        </div>
        <label class="check">
          <input
            type="checkbox"
            checked={filters.mine}
            onChange={(e) => onChange({ ...filters, mine: (e.target as HTMLInputElement).checked })}
          />{' '}
          Assigned to me
        </label>
      </div>
      {isFiltered(filters) && (
        <div class="form-actions">
          <button type="button" class="secondary" onClick={() => onChange(NO_CASE_FILTERS)}>
            Clear filters
          </button>
        </div>
      )}
    </form>
  );
}

/**
 * The case queue (#/cases): the account's cases, most recently changed first, filtered by state, severity and "assigned
 * to me", a page at a time, kept current by the socket without a reload.
 */
export function CaseQueue({
  filters,
  offset,
  names,
  onFilters,
  onOffset,
}: {
  filters: CaseFilters;
  offset: number;
  names: TeamNames;
  onFilters: (filters: CaseFilters) => void;
  onOffset: (offset: number) => void;
}) {
  const { page, error, loading, escalation, announcement, dismissEscalation } = useCaseQueue(filters, offset);
  const cases = page?.cases ?? [];
  const total = page?.total ?? 0;

  return (
    <section aria-labelledby="cases-title" aria-busy={loading ? 'true' : 'false'} data-testid="case-queue-section">
      <h1 id="cases-title">Case queue</h1>
      <p class="hint">
        An alert (a monitor's change, a screening whose policy says review or block, a KYT with sanctioned exposure)
        opens a case for its subject, or joins the open one. Most recently changed first; changes appear here as they
        happen.
      </p>
      <QueueFilters filters={filters} onChange={onFilters} />
      <p class="visually-hidden" role="status">
        {announcement}
      </p>
      {escalation && (
        <p class="notice" data-testid="case-escalation">
          {escalation}{' '}
          <button type="button" class="link" onClick={dismissEscalation}>
            Dismiss
          </button>
        </p>
      )}
      <ErrorNotice error={error} />
      {!page && !error && <p role="status">Loading the queue…</p>}
      {page && cases.length === 0 && total > 0 && (
        <p>
          This page is past the end of the queue.{' '}
          <button type="button" class="link" onClick={() => onOffset(0)}>
            Go to the first page
          </button>
        </p>
      )}
      {page && total === 0 && (
        <p class="hint" data-testid="cases-empty">
          {isFiltered(filters) ? 'No case matches these filters.' : 'No cases yet: the queue is empty.'}
        </p>
      )}
      {cases.length > 0 && <CaseQueueTable cases={cases} names={names} />}
      {cases.length > 0 && (
        <nav class="pagination" aria-label="Pages of the queue">
          <button
            type="button"
            class="secondary"
            disabled={offset === 0 || loading}
            onClick={() => onOffset(Math.max(0, offset - QUEUE_PAGE_SIZE))}
          >
            Previous
          </button>
          <span data-testid="case-range" aria-live="polite">
            {offset + 1}–{offset + cases.length} of {total}
          </span>
          <button
            type="button"
            class="secondary"
            disabled={offset + cases.length >= total || loading}
            onClick={() => onOffset(offset + QUEUE_PAGE_SIZE)}
          >
            Next
          </button>
        </nav>
      )}
    </section>
  );
}
