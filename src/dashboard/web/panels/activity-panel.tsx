import { useState } from 'preact/hooks';
import { ActivityDetailView } from '../activity/activity-detail';
import { ActivityHistory } from '../activity/activity-history';
import { NO_FILTERS, type ActivityFilters } from '../activity/activity-filters';
import type { PanelProps } from './panel-props';

/**
 * The history (#/activity) and one record (#/activity/<id>). The filters and the page live here, so
 * coming back from a record shows the list as it was left.
 */
export function ActivityPanel({ route }: PanelProps) {
  const [filters, setFilters] = useState<ActivityFilters>(NO_FILTERS);
  const [offset, setOffset] = useState(0);
  const [id] = route;
  if (id) return <ActivityDetailView id={id} />;
  return (
    <ActivityHistory
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
