import { BatchItemsTable } from './batch-items-table';
import { type BatchItemStatus, type BatchPage, ITEM_STATUSES } from './batch-types';
import { ITEM_STATUS_WORDS } from './batch-words';
import { ITEMS_PAGE_SIZE, type ItemsQuery } from './use-batch';

/** The batch's items a page at a time, all or of one status, with previous / next. */
export function BatchItemsSection({
  page,
  query,
  onQuery,
}: {
  page: BatchPage;
  query: ItemsQuery;
  onQuery: (query: ItemsQuery) => void;
}) {
  const { items } = page.data;
  const { total, hasMore } = page.pagination;
  return (
    <>
      <h3 id="batch-items-title">Items</h3>
      <div class="inline-form batch-filter">
        <div class="inline-form-field">
          <label for="batch-item-status">Show</label>
          <select
            id="batch-item-status"
            value={query.status ?? ''}
            onChange={(e) =>
              onQuery({ offset: 0, status: ((e.target as HTMLSelectElement).value || null) as BatchItemStatus | null })
            }
          >
            <option value="">every item</option>
            {ITEM_STATUSES.map((s) => (
              <option key={s} value={s}>
                {ITEM_STATUS_WORDS[s]} ({page.data.counts[s]})
              </option>
            ))}
          </select>
        </div>
      </div>
      {items.length === 0 ? (
        <p class="hint">{total === 0 ? 'No item has this status.' : 'This page is past the end of the list.'}</p>
      ) : (
        <BatchItemsTable items={items} policy={page.data.policy} />
      )}
      {total > ITEMS_PAGE_SIZE && (
        <nav class="pagination" aria-label="Pages of the items">
          <button
            type="button"
            class="secondary"
            disabled={query.offset === 0}
            onClick={() => onQuery({ ...query, offset: Math.max(0, query.offset - ITEMS_PAGE_SIZE) })}
          >
            Previous
          </button>
          <span aria-live="polite" data-testid="batch-items-range">
            {query.offset + 1}–{query.offset + items.length} of {total}
          </span>
          <button
            type="button"
            class="secondary"
            disabled={!hasMore}
            onClick={() => onQuery({ ...query, offset: query.offset + ITEMS_PAGE_SIZE })}
          >
            Next
          </button>
        </nav>
      )}
    </>
  );
}
