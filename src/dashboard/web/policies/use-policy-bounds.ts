import { useEffect, useState } from 'preact/hooks';
import { useSession } from '../context';
import { BOUNDS_PATH } from './policy-api';
import type { PolicyBounds } from './policy-types';

/** The limits of every policy setting and the standard model's values (they change only with the model file). */
export function usePolicyBounds(): { bounds: PolicyBounds | null; error: unknown } {
  const { api } = useSession();
  const [bounds, setBounds] = useState<PolicyBounds | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let current = true;
    api
      .get<{ data: PolicyBounds }>(BOUNDS_PATH)
      .then((body) => current && setBounds(body.data))
      .catch((err: unknown) => current && setError(err));
    return () => {
      current = false;
    };
  }, [api]);
  return { bounds, error };
}
