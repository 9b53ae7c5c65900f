import { useCallback, useEffect, useRef } from 'preact/hooks';

/**
 * The pauses before each read of the monitors awaiting a result, about 16 s in all. Even the first waits a moment:
 * the change that triggered it (an added monitor, a request) is in the panel's state only after the next render.
 */
const FOLLOW_UP_MS = [300, 700, 1_000, 2_000, 4_000, 8_000];

/**
 * The socket announces the end of a monitor's screening job (`job_status_changed`) but not the monitor's record of
 * it, which lands a moment later, once the monitor workflow has compared the result with the last one (a change
 * comes as an alert; a baseline or an unchanged result does not). So after that event, an add or a re-screen
 * request, the monitors still awaiting a result are read again a few times with growing pauses until none awaits:
 * a bounded follow-up of an event, never a polling loop. A newer trigger takes over from an older one.
 */
export function useScreeningFollowUp(awaiting: () => string[], reread: (id: string) => Promise<unknown>): () => void {
  const generation = useRef(0);
  // Leaving the panel ends any follow-up under way.
  useEffect(
    () => () => {
      generation.current += 1;
    },
    [],
  );
  return useCallback(() => {
    generation.current += 1;
    const mine = generation.current;
    void (async () => {
      for (const pause of FOLLOW_UP_MS) {
        await new Promise((resolve) => setTimeout(resolve, pause));
        if (mine !== generation.current) return;
        const ids = awaiting();
        if (ids.length === 0) return;
        await Promise.all(ids.map(reread));
      }
    })();
  }, [awaiting, reread]);
}
