import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useSession } from '../context';
import { alertsPath } from './monitor-api';
import { type AlertArrival, useMonitorAlertEvents } from './monitor-events';
import type { MonitorAlert, MonitorAlertList } from './monitor-types';

const PAGE_SIZE = 20;

interface AlertPage {
  alerts: MonitorAlert[];
  total: number;
}

/** An alert that arrived live goes on top (once: a read may already hold it), and the total grows by one. */
function withLiveAlert(page: AlertPage, alert: MonitorAlert): AlertPage {
  if (page.alerts.some((a) => a.id === alert.id)) return page;
  return { alerts: [alert, ...page.alerts], total: page.total + 1 };
}

/**
 * One monitor's alerts, newest first, kept current by the socket: an alert of this monitor goes on top the moment
 * it is stored. Alerts that arrive while the first page is loading are applied to it once it is in, so none is lost
 * between the read and the event. Older alerts come a page at a time.
 */
export function useMonitorAlerts(monitorId: string) {
  const { api, socket } = useSession();
  const [page, setPage] = useState<AlertPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const arrivedWhileLoading = useRef<MonitorAlert[] | null>(null);

  useEffect(() => {
    let current = true;
    arrivedWhileLoading.current = [];
    setPage(null);
    setError(null);
    api
      .get<MonitorAlertList>(alertsPath(monitorId, PAGE_SIZE, 0))
      .then((body) => {
        if (!current) return;
        const loaded = { alerts: body.data, total: body.pagination.total };
        setPage((arrivedWhileLoading.current ?? []).reduce(withLiveAlert, loaded));
      })
      .catch((err: unknown) => current && setError(err))
      .finally(() => {
        if (current) arrivedWhileLoading.current = null;
      });
    return () => {
      current = false;
    };
  }, [api, monitorId]);

  const onAlert = useCallback(
    ({ alert }: AlertArrival) => {
      if (alert.monitor_id !== monitorId) return;
      if (arrivedWhileLoading.current) arrivedWhileLoading.current.push(alert);
      else setPage((prev) => prev && withLiveAlert(prev, alert));
    },
    [monitorId],
  );
  useMonitorAlertEvents(socket, onAlert);

  /** The next page of older alerts; the live ones on top are counted in the offset like the listed ones. */
  const showOlder = useCallback(async () => {
    if (!page || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const body = await api.get<MonitorAlertList>(alertsPath(monitorId, PAGE_SIZE, page.alerts.length));
      setPage((prev) => {
        if (!prev) return prev;
        const known = new Set(prev.alerts.map((a) => a.id));
        return { alerts: [...prev.alerts, ...body.data.filter((a) => !known.has(a.id))], total: body.pagination.total };
      });
      setError(null);
    } catch (err) {
      setError(err);
    } finally {
      setLoadingOlder(false);
    }
  }, [api, monitorId, page, loadingOlder]);

  return { page, error, loadingOlder, showOlder };
}
