/** Lists workflows: a sanctions list refresh, run by the schedule lists-refresh:<list>. Deterministic code only. */
import { proxyActivities } from '@temporalio/workflow';
import type { ListActivities } from '../activities/lists';
import type { ListRefreshInput, ListRefreshResult } from '../src/lists/workflow-types';

/** A 120 MB download and parse: minutes at most; a server that cannot be reached is tried again a few times. */
const { refreshSanctionsList } = proxyActivities<ListActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '30s', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 5 },
});

/**
 * One refresh (id `lists-refresh:<list>-<time>`): read the published issue and make it the active version. The
 * same bytes again change nothing; an older issue is refused (LIST_ISSUE_OUTDATED) and the run fails for an
 * operator to see.
 */
export async function listRefreshWorkflow(input: ListRefreshInput): Promise<ListRefreshResult> {
  return refreshSanctionsList(input);
}
