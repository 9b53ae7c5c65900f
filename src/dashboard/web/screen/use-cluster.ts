import { useEffect, useState } from 'preact/hooks';
import { useSession } from '../context';
import type { ClusterView } from './cluster-types';

/**
 * The wallet cluster of one address, read once per (chain, address) with the session's credential. An answer that
 * arrives after the address changed is dropped, so a slow earlier read never shows under a later job.
 */
export function useCluster(
  chain: string,
  address: string,
): { cluster: ClusterView | null; loading: boolean; error: unknown; retry: () => void } {
  const { api } = useSession();
  const [cluster, setCluster] = useState<ClusterView | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    setLoading(true);
    setError(null);
    setCluster(null);
    api
      .get<{ data: ClusterView }>(`/api/v1/clusters/${encodeURIComponent(chain)}/${encodeURIComponent(address)}`)
      .then((body) => current && setCluster(body.data))
      .catch((err: unknown) => current && setError(err))
      .finally(() => current && setLoading(false));
    return () => {
      current = false;
    };
  }, [api, chain, address, attempt]);

  return { cluster, loading, error, retry: () => setAttempt((n) => n + 1) };
}
