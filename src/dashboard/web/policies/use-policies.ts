import { useCallback, useEffect, useState } from 'preact/hooks';
import { useSession } from '../context';
import { POLICIES_PATH } from './policy-api';
import type { PolicyList, PolicyView } from './policy-types';

export interface PoliciesState {
  /** null until the first read answers. */
  policies: PolicyView[] | null;
  defaultPolicyId: string | null;
  error: unknown;
  reload(): Promise<void>;
}

/** The account's policies (current versions) and which one is its default, read once per mount and on request. */
export function usePolicies(): PoliciesState {
  const { api } = useSession();
  const [list, setList] = useState<PolicyList | null>(null);
  const [error, setError] = useState<unknown>(null);

  const reload = useCallback(async () => {
    try {
      setList(await api.get<PolicyList>(POLICIES_PATH));
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [api]);
  useEffect(() => void reload(), [reload]);

  return { policies: list?.data ?? null, defaultPolicyId: list?.default_policy_id ?? null, error, reload };
}
