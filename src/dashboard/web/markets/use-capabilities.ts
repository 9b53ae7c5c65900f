import { useCallback, useEffect, useState } from 'preact/hooks';
import { useSession } from '../context';
import type { Capabilities } from './market-types';

/** Read once per visit: it counts against the key's market-data budget like every market request. */
export function useCapabilities(): { caps: Capabilities | null; error: unknown; retry: () => void } {
  const { api } = useSession();
  const [caps, setCaps] = useState<Capabilities | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(() => {
    setError(null);
    api
      .get<{ data: Capabilities }>('/api/v1/capabilities')
      .then((body) => setCaps(body.data))
      .catch(setError);
  }, [api]);
  useEffect(load, [load]);
  return { caps, error, retry: load };
}
