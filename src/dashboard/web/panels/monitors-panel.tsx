import { useMemo, useRef } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import { hrefFor } from '../hash-route';
import { AddMonitorForm } from '../monitors/add-monitor-form';
import { MonitorAlerts } from '../monitors/monitor-alerts';
import type { MonitorActions } from '../monitors/monitor-card';
import { MonitorList } from '../monitors/monitor-list';
import { useMonitors } from '../monitors/use-monitors';
import type { PanelProps } from './panel-props';

/**
 * Watched addresses (#/monitors) and one monitor's alerts (#/monitors/<id>): add, re-screen and delete monitors,
 * with their results and alerts following the socket.
 */
export function MonitorsPanel({ route }: PanelProps) {
  const { monitors, total, error, announcement, add, rescreen, remove, rescreenRequested } = useMonitors();
  const listHeading = useRef<HTMLHeadingElement>(null);
  const selectedId = route[0] ?? null;

  const actions = useMemo<MonitorActions>(
    () => ({
      rescreen,
      rescreenRequested,
      remove: async (id) => {
        await remove(id);
        // Its card (and the button that had the focus) is gone: the list's heading takes the focus instead.
        listHeading.current?.focus();
        if (id === selectedId) window.location.hash = hrefFor('monitors');
      },
    }),
    [rescreen, rescreenRequested, remove, selectedId],
  );

  return (
    <>
      <section aria-labelledby="add-monitor-title">
        <h1 id="add-monitor-title">Monitor an address</h1>
        <AddMonitorForm onAdd={add} />
      </section>
      <section aria-labelledby="monitors-title" aria-busy={monitors ? 'false' : 'true'}>
        <h2 id="monitors-title" tabIndex={-1} ref={listHeading}>
          Your monitors
        </h2>
        <p class="visually-hidden" role="status">
          {announcement}
        </p>
        <ErrorNotice error={error} />
        {!monitors && !error && <p role="status">Loading your monitors…</p>}
        {monitors && <MonitorList monitors={monitors} total={total} selectedId={selectedId} actions={actions} />}
      </section>
      {selectedId && (
        <MonitorAlerts key={selectedId} monitorId={selectedId} monitor={monitors?.find((m) => m.id === selectedId)} />
      )}
    </>
  );
}
