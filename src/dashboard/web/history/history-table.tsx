import { type Column, DataTable } from '../components/data-table';
import { hrefFor } from '../hash-route';
import { RiskLevel } from '../screen/risk-level';
import { historyEntryTarget, historyEntryTime } from './history-query';
import type { HistoryEntrySummary } from './history-types';

export const TYPE_WORDS: Record<HistoryEntrySummary['activityType'], string> = { kya: 'KYA', kyt: 'KYT', kye: 'KYE' };

export function StatusWords({ item }: { item: Pick<HistoryEntrySummary, 'isError' | 'statusCode'> }) {
  if (item.isError) return <span class="status-error">Error{item.statusCode ? ` (HTTP ${item.statusCode})` : ''}</span>;
  return <>OK{item.statusCode && item.statusCode !== 200 ? ` (HTTP ${item.statusCode})` : ''}</>;
}

const COLUMNS: Column<HistoryEntrySummary>[] = [
  // The time opens the entry: a plain link, so keyboard and new-tab work.
  { header: 'Time', cell: (item) => <a href={hrefFor('activity', item.id)}>{historyEntryTime(item.createdAt)}</a> },
  { header: 'Type', cell: (item) => TYPE_WORDS[item.activityType] ?? item.activityType },
  { header: 'Chain', cell: (item) => item.blockchain ?? '—' },
  { header: 'Target', cell: historyEntryTarget, class: 'mono' },
  { header: 'Risk level', cell: (item) => <RiskLevel level={item.riskLevel} /> },
  { header: 'Score', cell: (item) => item.riskScore ?? '—' },
  { header: 'Status', cell: (item) => <StatusWords item={item} /> },
];

/** The history as a table. */
export function HistoryTable({ rows }: { rows: HistoryEntrySummary[] }) {
  return (
    <DataTable
      class="history-table wide-table"
      testId="history-rows"
      columns={COLUMNS}
      rows={rows}
      rowKey={(item) => item.id}
      rowAttributes={(item) => ({ 'data-id': item.id })}
    />
  );
}
