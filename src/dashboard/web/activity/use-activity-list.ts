import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useSession } from '../context';
import { useRealtimeEvent } from '../realtime';
import { activityQuery, matchesFilters } from './activity-query';
import type { ActivityFilters } from './activity-filters';
import type { ActivityItem, ActivityList, Pagination } from './activity-types';

export interface ActivityPage {
  rows: ActivityItem[];
  pagination: Pagination;
}

/** A record that arrived live goes on top of the first page (once), and the total grows by one. */
function withLiveRecord(page: ActivityPage, item: ActivityItem): ActivityPage {
  if (page.rows.some((r) => r.id === item.id)) return page;
  const total = page.pagination.total + 1;
  const rows = [item, ...page.rows].slice(0, page.pagination.limit);
  return { rows, pagination: { ...page.pagination, total, hasMore: page.pagination.offset + rows.length < total } };
}

/**
 * One page of the history under the given filters, kept current by `activity_recorded`: a new record
 * that matches goes on top when the first page is shown; on a later page (where it would shift every
 * row) it is counted in `newOnTop` instead, for a "show newest" notice. Records that arrive while a
 * page is loading are applied to it once it is in, so none is lost between the read and the event.
 */
export function useActivityList(filters: ActivityFilters, offset: number) {
  const { api, socket } = useSession();
  const [page, setPage] = useState<ActivityPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  // Busy from the very render that changes the query, not one effect later: no moment shows old rows as current.
  const query = activityQuery(filters, offset);
  const [loadedQuery, setLoadedQuery] = useState<string | null>(null);
  const loading = loadedQuery !== query;
  const [newOnTop, setNewOnTop] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  const arrivedWhileLoading = useRef<ActivityItem[] | null>(null);

  useEffect(() => {
    let current = true;
    arrivedWhileLoading.current = [];
    api
      .get<ActivityList>(`/api/v1/activity?${query}`)
      .then((body) => {
        if (!current) return;
        const arrived = arrivedWhileLoading.current ?? [];
        const loaded = { rows: body.data, pagination: body.pagination };
        setPage(offset === 0 ? arrived.reduce(withLiveRecord, loaded) : loaded);
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
    (item: ActivityItem) => {
      if (!matchesFilters(item, filters)) return;
      if (arrivedWhileLoading.current) {
        arrivedWhileLoading.current.push(item);
        return;
      }
      if (offset > 0) {
        setNewOnTop((n) => n + 1);
        return;
      }
      setPage((prev) => prev && withLiveRecord(prev, item));
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
