import type { z } from 'zod';
import { useEffect, useState } from 'preact/hooks';
import type { capabilitiesResponse } from '../../../market';
import { useSession } from '../context';

/** One chain as GET /api/v1/capabilities lists it: what this deployment can do there. */
export type ChainReach = z.output<typeof capabilitiesResponse>['data']['chains'][number];

/** Read once per page load, shared by every chain picker (it counts against the key's market-data budget). */
let pending: Promise<ChainReach[]> | null = null;

/** Every chain and what this deployment can do there; empty until read, and when it cannot be read. */
export function useChainReach(): ChainReach[] {
  const { api } = useSession();
  const [chains, setChains] = useState<ChainReach[]>([]);
  useEffect(() => {
    pending ??= api
      .get<{ data: { chains: ChainReach[] } }>('/api/v1/capabilities')
      .then((body) => body.data.chains)
      .catch(() => {
        pending = null;
        return [];
      });
    let live = true;
    void pending.then((read) => live && setChains(read));
    return () => {
      live = false;
    };
  }, [api]);
  return chains;
}
