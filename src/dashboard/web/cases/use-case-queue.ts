import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useSession } from '../context';
import { queuePath } from './case-api';
import { useCaseEvents, useCoalescedRead } from './case-events';
import type { CaseEvent, CaseFilters, CaseList, CaseView } from './case-types';

export interface QueuePage {
  cases: CaseView[];
  total: number;
}

/**
 * One page of the queue under the given filters, most recently changed first. Every case event of the account reads
 * the page again (a change can move a case into or out of the filters, or to the top), coalesced so that a burst costs
 * at most two reads; so does a reconnect. An escalation is also said in words (`escalation`).
 */
export function useCaseQueue(filters: CaseFilters, offset: number) {
  const { api, socket } = useSession();
  const [page, setPage] = useState<QueuePage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const path = queuePath(filters, offset);
  // Busy from the very render that changes the query, not one effect later: no moment shows old rows as current.
  const [loadedPath, setLoadedPath] = useState<string | null>(null);
  const [escalation, setEscalation] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const currentPath = useRef(path);
  currentPath.current = path;

  const read = useCallback(async () => {
    const asked = currentPath.current;
    try {
      const body = await api.get<CaseList>(asked);
      if (asked !== currentPath.current) return;
      setPage({ cases: body.data, total: body.pagination.total });
      setError(null);
    } catch (err) {
      if (asked === currentPath.current) setError(err);
    } finally {
      if (asked === currentPath.current) setLoadedPath(asked);
    }
  }, [api]);
  const reread = useCoalescedRead(read);

  useEffect(() => reread(), [path, reread]);

  const onEvent = useCallback(
    (e: CaseEvent, escalated: boolean) => {
      if (escalated) {
        const words = `A case was escalated to ${e.severity.toUpperCase()}.`;
        setEscalation(words);
        setAnnouncement(words);
      } else setAnnouncement(`A case changed: ${e.action}, now ${e.state}.`);
      reread();
    },
    [reread],
  );
  useCaseEvents(socket, onEvent, reread);

  return {
    page,
    error,
    loading: loadedPath !== path,
    escalation,
    announcement,
    dismissEscalation: () => setEscalation(''),
  };
}
