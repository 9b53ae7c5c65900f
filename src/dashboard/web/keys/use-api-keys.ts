import { useCallback, useEffect, useState } from 'preact/hooks';
import { useSession } from '../context';
import type { ApiKeyRecord } from './key-types';

/** The account's keys, newest first as the API lists them; `reload` after a create or revoke. */
export function useApiKeys(): { keys: ApiKeyRecord[] | null; error: unknown; reload: () => Promise<void> } {
  const { api } = useSession();
  const [keys, setKeys] = useState<ApiKeyRecord[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(async () => {
    try {
      const body = await api.get<{ data: ApiKeyRecord[] }>('/api/v1/api-keys');
      setKeys(body.data);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [api]);
  useEffect(() => void reload(), [reload]);
  return { keys, error, reload };
}
