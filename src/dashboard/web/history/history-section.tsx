import { ErrorNotice } from '../components/error-notice';
import { HistoryFiltersForm } from './history-filters-form';
import { HistoryTable } from './history-table';
import { NO_FILTERS, type HistoryFilters } from './history-filters';
import { useHistoryList } from './use-history-list';

const isFiltered = (f: HistoryFilters) =>
  JSON.stringify({ ...f, limit: 0 }) !== JSON.stringify({ ...NO_FILTERS, limit: 0 });

interface Props {
  filters: HistoryFilters;
  offset: number;
  onFilters: (filters: HistoryFilters) => void;
  onOffset: (offset: number) => void;
}

/** The history list: filters, the table, "x–y of total" with previous/next, and entries arriving live. */
export function HistorySection({ filters, offset, onFilters, onOffset }: Props) {
  const { page, error, loading, newOnTop, announcement } = useHistoryList(filters, offset);
  const rows = page?.rows ?? [];
  const total = page?.pagination.total ?? 0;

  return (
    <section aria-labelledby="history-title" aria-busy={loading ? 'true' : 'false'} data-testid="history-section">
      <h1 id="history-title">Activity history</h1>
      <HistoryFiltersForm filters={filters} onApply={onFilters} />
      <p class="visually-hidden" role="status">
        {announcement}
      </p>
      {newOnTop > 0 && (
        <p class="notice" role="status">
          {newOnTop} new record{newOnTop === 1 ? '' : 's'} on top of the list.{' '}
          <button type="button" class="link" onClick={() => onOffset(0)}>
            Show the newest
          </button>
        </p>
      )}
      <ErrorNotice error={error} />
      {loading && !page && <p role="status">Loading your history…</p>}
      {page && rows.length === 0 && total > 0 && (
        <p>
          This page is past the end of the list.{' '}
          <button type="button" class="link" onClick={() => onOffset(0)}>
            Go to the first page
          </button>
        </p>
      )}
      {page && total === 0 && (
        <p data-testid="history-empty">
          {isFiltered(filters)
            ? 'No records match these filters.'
            : 'Your history is empty: screenings and reports you run appear here.'}
        </p>
      )}
      {rows.length > 0 && <HistoryTable rows={rows} />}
      {rows.length > 0 && (
        <nav class="pagination" aria-label="Pages of the history">
          <button
            type="button"
            class="secondary"
            disabled={offset === 0 || loading}
            onClick={() => onOffset(Math.max(0, offset - filters.limit))}
          >
            Previous
          </button>
          <span data-testid="history-range" aria-live="polite">
            {offset + 1}–{offset + rows.length} of {total}
          </span>
          <button
            type="button"
            class="secondary"
            disabled={!page?.pagination.hasMore || loading}
            onClick={() => onOffset(offset + filters.limit)}
          >
            Next
          </button>
        </nav>
      )}
    </section>
  );
}
