import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api-client';
import { useSession } from '../context';
import { useRealtimeEvent } from '../realtime';
import { chainName } from '../screen/screen-words';
import { MONITORS_PATH, monitorPath } from './monitor-api';
import { type AlertArrival, useMonitorAlertEvents } from './monitor-events';
import type { Monitor, MonitorList, NewMonitor } from './monitor-types';
import { ALERT_KIND_WORDS } from './monitor-words';
import { useScreeningFollowUp } from './use-screening-follow-up';

/** The most the API lists at once; an account with more is told how many are not shown. */
const LIST_LIMIT = 100;

/** Monitor id → its last request id when a re-screen was asked for: the re-screen is in once that changes. */
type RescreenRequests = Record<string, string | null>;

const awaitsResult = (m: Monitor, requests: RescreenRequests): boolean =>
  m.status === 'active' && (!m.last_result || m.id in requests);

/**
 * The account's monitors, kept current: a monitor alert on the socket re-reads that monitor (its row shows the new
 * result or status at once); a finished screening job, an add or a re-screen request starts the bounded follow-up
 * of the monitors awaiting a result (use-screening-follow-up.ts); a reconnect reads the list again, since events
 * sent meanwhile were not heard.
 */
export function useMonitors() {
  const { api, socket } = useSession();
  // One state for the rows and the count, so a row added or dropped moves both in the same update.
  const [listed, setListed] = useState<{ monitors: Monitor[]; total: number } | null>(null);
  const monitors = listed?.monitors ?? null;
  const [error, setError] = useState<unknown>(null);
  const [requests, setRequests] = useState<RescreenRequests>({});
  const [announcement, setAnnouncement] = useState('');
  const latest = useRef({ monitors, requests });
  latest.current = { monitors, requests };

  const reload = useCallback(async () => {
    try {
      const body = await api.get<MonitorList>(`${MONITORS_PATH}?limit=${LIST_LIMIT}`);
      setListed({ monitors: body.data, total: body.pagination.total });
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [api]);
  useEffect(() => void reload(), [reload]);

  const put = useCallback((monitor: Monitor) => {
    setListed((prev) => {
      if (!prev) return prev;
      if (!prev.monitors.some((m) => m.id === monitor.id))
        return { monitors: [monitor, ...prev.monitors], total: prev.total + 1 };
      return { ...prev, monitors: prev.monitors.map((m) => (m.id === monitor.id ? monitor : m)) };
    });
    setRequests((prev) => {
      if (!(monitor.id in prev) || prev[monitor.id] === monitor.last_request_id) return prev;
      const { [monitor.id]: _done, ...rest } = prev;
      return rest;
    });
  }, []);

  const drop = useCallback((id: string) => {
    setListed((prev) =>
      prev?.monitors.some((m) => m.id === id)
        ? { monitors: prev.monitors.filter((m) => m.id !== id), total: Math.max(0, prev.total - 1) }
        : prev,
    );
  }, []);

  /** Reads one monitor again; one that is gone (deleted elsewhere) leaves the list. */
  const reread = useCallback(
    async (id: string) => {
      try {
        put((await api.get<{ data: Monitor }>(monitorPath(id))).data);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) drop(id);
        else setError(err);
      }
    },
    [api, put, drop],
  );

  const awaiting = useCallback(() => {
    const { monitors: list, requests: asked } = latest.current;
    return (list ?? []).filter((m) => awaitsResult(m, asked)).map((m) => m.id);
  }, []);
  const followUp = useScreeningFollowUp(awaiting, reread);

  useRealtimeEvent(
    socket,
    'job_status_changed',
    useCallback(
      (e: { status: string }) => {
        if (e.status !== 'queued') followUp();
      },
      [followUp],
    ),
  );

  const onAlert = useCallback(
    ({ alert, chain, address }: AlertArrival) => {
      setAnnouncement(`${ALERT_KIND_WORDS[alert.kind]}: ${chainName(chain)} ${address}, ${alert.reason}.`);
      const known = latest.current.monitors?.find((m) => m.id === alert.monitor_id);
      // Resumed: the monitor re-screens next, and that result is awaited like a requested one.
      if (known && alert.kind === 'resumed') setRequests((prev) => ({ ...prev, [known.id]: known.last_request_id }));
      void reread(alert.monitor_id).then(() => {
        if (alert.kind === 'resumed') followUp();
      });
    },
    [reread, followUp],
  );
  useMonitorAlertEvents(socket, onAlert);

  // After a reconnect, alerts sent while the socket was away are lost: read the list once more.
  useEffect(() => {
    if (!socket) return undefined;
    let connectedBefore = socket.connected;
    const onConnect = () => {
      if (connectedBefore) void reload().then(followUp);
      connectedBefore = true;
    };
    socket.on('connect', onConnect);
    return () => void socket.off('connect', onConnect);
  }, [socket, reload, followUp]);

  /** Adds a monitor (or answers the existing one for the same address); throws the API's refusal in words. */
  const add = useCallback(
    async (input: NewMonitor): Promise<{ monitor: Monitor; existed: boolean }> => {
      const body = await api.post<{ data: Monitor }>(MONITORS_PATH, input);
      const existed = latest.current.monitors?.some((m) => m.id === body.data.id) ?? false;
      put(body.data);
      followUp();
      return { monitor: body.data, existed };
    },
    [api, put, followUp],
  );

  /** Asks for a re-screen now; the card says so until the new result is in. */
  const rescreen = useCallback(
    async (monitor: Monitor): Promise<void> => {
      await api.post(`${monitorPath(monitor.id)}/rescreen`);
      setRequests((prev) => ({ ...prev, [monitor.id]: monitor.last_request_id }));
      followUp();
    },
    [api, followUp],
  );

  const remove = useCallback(
    async (id: string): Promise<void> => {
      await api.delete(monitorPath(id));
      const gone = latest.current.monitors?.find((m) => m.id === id);
      drop(id);
      setAnnouncement(gone ? `The monitor of ${gone.address} was deleted.` : 'The monitor was deleted.');
    },
    [api, drop],
  );

  const rescreenRequested = useCallback((id: string) => id in requests, [requests]);
  return { monitors, total: listed?.total ?? 0, error, announcement, add, rescreen, remove, rescreenRequested };
}
