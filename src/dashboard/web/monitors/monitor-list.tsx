import { type MonitorActions, MonitorCard } from './monitor-card';
import type { Monitor } from './monitor-types';

/** The account's monitors as cards (readable at phone width without sideways scrolling), newest first. */
export function MonitorList({
  monitors,
  total,
  selectedId,
  actions,
}: {
  monitors: Monitor[];
  total: number;
  selectedId: string | null;
  actions: MonitorActions;
}) {
  if (monitors.length === 0)
    return (
      <p class="hint" data-testid="monitors-empty">
        You have no monitors yet. Add an address above to be told when its risk changes.
      </p>
    );
  return (
    <>
      {total > monitors.length && (
        <p class="hint">
          Showing the newest {monitors.length} of your {total} monitors.
        </p>
      )}
      <ul class="monitor-list" data-testid="monitor-list">
        {monitors.map((monitor) => (
          <MonitorCard key={monitor.id} monitor={monitor} selected={monitor.id === selectedId} actions={actions} />
        ))}
      </ul>
    </>
  );
}
