import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useSession } from '../context';
import { useRealtimeEvent } from '../realtime';
import { historyQuery, matchesFilters } from './history-query';
import type { HistoryFilters } from './history-filters';
import type { HistoryEntrySummary, HistoryList, Pagination } from './history-types';

export interface HistoryPage {
  rows: HistoryEntrySummary[];
  pagination: Pagination;
}

/** An entry that arrived live goes on top of the first page (once), and the total grows by one. */
function withLiveEntry(page: HistoryPage, item: HistoryEntrySummary): HistoryPage {
  if (page.rows.some((r) => r.id === item.id)) return page;
  const total = page.pagination.total + 1;
  const rows = [item, ...page.rows].slice(0, page.pagination.limit);
  return { rows, pagination: { ...page.pagination, total, hasMore: page.pagination.offset + rows.length < total } };
}

/**
 * One page of the history under the given filters, kept current by `activity_recorded`: a new entry
 * that matches goes on top when the first page is shown; on a later page (where it would shift every
 * row) it is counted in `newOnTop` instead, for a "show newest" notice. Entries that arrive while a
 * page is loading are applied to it once it is in, so none is lost between the read and the event.
 */
export function useHistoryList(filters: HistoryFilters, offset: number) {
  const { api, socket } = useSession();
  const [page, setPage] = useState<HistoryPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  // Busy from the very render that changes the query, not one effect later: no moment shows old rows as current.
  const query = historyQuery(filters, offset);
  const [loadedQuery, setLoadedQuery] = useState<string | null>(null);
  const loading = loadedQuery !== query;
  const [newOnTop, setNewOnTop] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  const arrivedWhileLoading = useRef<HistoryEntrySummary[] | null>(null);

  useEffect(() => {
    let current = true;
    arrivedWhileLoading.current = [];
    api
      .get<HistoryList>(`/api/v1/activity?${query}`)
      .then((body) => {
        if (!current) return;
        const arrived = arrivedWhileLoading.current ?? [];
        const loaded = { rows: body.data, pagination: body.pagination };
        setPage(offset === 0 ? arrived.reduce(withLiveEntry, loaded) : loaded);
        setNewOnTop(offset === 0 ? 0 : arrived.length);
        setError(null);
      })
      .catch((err: unknown) => {
        if (!current) return;
        setError(err);
        setPage(null);
      })
      .finally(() => {
        if (!current) return;
        arrivedWhileLoading.current = null;
        setLoadedQuery(query);
      });
    return () => {
      current = false;
    };
  }, [api, query, offset]);

  const onRecorded = useCallback(
    (item: HistoryEntrySummary) => {
      if (!matchesFilters(item, filters)) return;
      if (arrivedWhileLoading.current) {
        arrivedWhileLoading.current.push(item);
        return;
      }
      if (offset > 0) {
        setNewOnTop((n) => n + 1);
        return;
      }
      setPage((prev) => prev && withLiveEntry(prev, item));
      setAnnouncement(
        (
          `New record added on top: ${item.activityType.toUpperCase()} ` +
          `${item.address ?? item.transactionHash ?? item.entityName ?? ''}`
        ).trim(),
      );
    },
    [filters, offset],
  );
  useRealtimeEvent(socket, 'activity_recorded', onRecorded);

  return { page, error, loading, newOnTop, announcement };
}
