import { useState } from 'preact/hooks';
import { HistoryEntryView } from '../history/history-entry-view';
import { HistorySection } from '../history/history-section';
import { NO_FILTERS, type HistoryFilters } from '../history/history-filters';
import type { PanelProps } from './panel-props';

/**
 * The history (#/activity) and one entry (#/activity/<id>). The filters and the page live here, so
 * coming back from an entry shows the list as it was left.
 */
export function HistoryPanel({ route }: PanelProps) {
  const [filters, setFilters] = useState<HistoryFilters>(NO_FILTERS);
  const [offset, setOffset] = useState(0);
  const [id] = route;
  if (id) return <HistoryEntryView id={id} />;
  return (
    <HistorySection
      filters={filters}
      offset={offset}
      onFilters={(next) => {
        setFilters(next);
        setOffset(0);
      }}
      onOffset={setOffset}
    />
  );
}
