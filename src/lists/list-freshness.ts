import type { Check } from '../platform/health/checks';
import { isStale, type ListsRouterDeps } from './lists-routes';

/**
 * /readyz advisory: fails while refresh is on and the active OFAC version is older than OFAC_MAX_AGE_DAYS by issue
 * date, so an operator sees that answers rest on an outdated list (the process stays in rotation).
 */
export function ofacListFresh(deps: Pick<ListsRouterDeps, 'lists' | 'ofacRefresh' | 'now'>): Check {
  return async () => {
    const active = await deps.lists.activeVersion('ofac');
    const now = deps.now?.() ?? new Date();
    if (isStale(active, deps.ofacRefresh, now)) {
      throw new Error(
        active
          ? `OFAC list version of ${active.issueDate} is older than ${deps.ofacRefresh.maxAgeDays} days`
          : 'no OFAC list version is loaded',
      );
    }
    return active ? `OFAC issue ${active.issueDate}` : 'OFAC refresh off, no version loaded';
  };
}
