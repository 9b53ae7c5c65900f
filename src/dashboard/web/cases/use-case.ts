import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useSession } from '../context';
import { type CaseActionSegment, caseActionPath, casePath } from './case-api';
import { useCaseEvents, useCoalescedRead } from './case-events';
import type { CaseDetail, CaseEvent, CaseView } from './case-types';

/**
 * One case with its trail and alerts (GET /api/v1/cases/:id), kept current by the socket: an event of this case whose
 * trail entry the page does not hold yet reads the case again (coalesced), as does a reconnect. `act` sends a member's
 * action and reads the case once it is recorded; a refusal is thrown to the caller with the API's words.
 */
export function useCase(caseId: string) {
  const { api, socket } = useSession();
  const [detail, setDetail] = useState<CaseDetail | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [announcement, setAnnouncement] = useState('');
  const held = useRef(0);

  const read = useCallback(async () => {
    try {
      const body = await api.get<{ data: CaseDetail }>(casePath(caseId));
      // Reads may finish out of order: never go back to a shorter trail.
      if (body.data.trail_length < held.current) return;
      held.current = body.data.trail_length;
      setDetail(body.data);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [api, caseId]);
  const reread = useCoalescedRead(read);

  useEffect(() => {
    held.current = 0;
    setDetail(null);
    setError(null);
    reread();
  }, [caseId, reread]);

  const onEvent = useCallback(
    (e: CaseEvent, escalated: boolean) => {
      if (e.caseId !== caseId) return;
      if (escalated) setAnnouncement(`This case was escalated to ${e.severity.toUpperCase()}.`);
      if (e.seq > held.current) reread();
    },
    [caseId, reread],
  );
  useCaseEvents(socket, onEvent, reread);

  const act = useCallback(
    async (action: CaseActionSegment, body: Record<string, unknown>): Promise<CaseView> => {
      const answer = await api.post<{ data: CaseView }>(caseActionPath(caseId, action), body);
      reread();
      return answer.data;
    },
    [api, caseId, reread],
  );

  return { detail, error, announcement, act };
}
