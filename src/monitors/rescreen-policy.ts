import { PolicyNotFoundError, type PolicyResolver, type PolicySnapshot } from '../screening';
import type { Monitor } from './monitors-store';

/**
 * The policy version a re-screen is scored under, resolved at each re-screen: the monitor's policy at its version
 * of that moment, or the account's default when it names none. A policy deleted since the monitor was created
 * falls back to the account's default (the answer names whatever scored it): a deleted policy must not end a
 * sanctions watch, and the monitor has no policy left to wait for.
 */
export async function rescreenPolicy(
  policies: PolicyResolver,
  monitor: Pick<Monitor, 'userId' | 'policyId'>,
): Promise<PolicySnapshot | null> {
  try {
    return await policies.resolve(monitor.userId, monitor.policyId);
  } catch (err) {
    if (err instanceof PolicyNotFoundError) return policies.resolve(monitor.userId, null);
    throw err;
  }
}
