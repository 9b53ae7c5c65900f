import type { HistoryFilters } from './history-filters';
import type { HistoryEntrySummary } from './history-types';

/** The query string of GET /api/v1/activity (parameter names: historyListQuery, src/history/history-routes.ts). */
export function historyQuery(filters: HistoryFilters, offset: number): string {
  const params = new URLSearchParams();
  if (filters.activityType) params.set('activityType', filters.activityType);
  if (filters.riskLevel) params.set('riskLevel', filters.riskLevel);
  if (filters.blockchain.trim()) params.set('blockchain', filters.blockchain.trim());
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.errorsOnly) params.set('errors', 'true');
  if (filters.q.trim()) params.set('q', filters.q.trim());
  params.set('limit', String(filters.limit));
  params.set('offset', String(offset));
  return params.toString();
}

const contains = (value: string | null, needle: string): boolean => value?.toLowerCase().includes(needle) ?? false;

/**
 * Whether an entry pushed on the socket belongs in the list as filtered: the same tests the server's
 * query makes (src/history/history-store.ts), so a live row never shows up where a reload would not put it.
 */
export function matchesFilters(item: HistoryEntrySummary, filters: HistoryFilters): boolean {
  const created = Date.parse(item.createdAt);
  const q = filters.q.trim().toLowerCase();
  return (
    (!filters.activityType || item.activityType === filters.activityType) &&
    (!filters.riskLevel || item.riskLevel === filters.riskLevel) &&
    (!filters.blockchain.trim() || item.blockchain === filters.blockchain.trim().toLowerCase()) &&
    (!filters.from || created >= Date.parse(filters.from)) &&
    (!filters.to || created < Date.parse(filters.to)) &&
    (!filters.errorsOnly || item.isError) &&
    (!q ||
      contains(item.address, q) ||
      contains(item.transactionHash, q) ||
      contains(item.entityName, q) ||
      contains(item.entityId, q))
  );
}

/** The words for who or what an entry is about: the address, the transaction, or the entity. */
export const historyEntryTarget = (item: HistoryEntrySummary): string =>
  item.address ?? item.transactionHash ?? item.entityName ?? item.entityId ?? '—';

export const historyEntryTime = (iso: string): string =>
  new Date(iso).toLocaleString('en-GB', {
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
