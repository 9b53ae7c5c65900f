/**
 * Lists workflows: a sanctions list refresh, run by the schedule lists-refresh:<list>, and the stablecoin freeze
 * sync, run by lists-refresh:freezes. Deterministic code only.
 */
import { executeChild, ParentClosePolicy, proxyActivities } from '@temporalio/workflow';
import type { ListActivities } from './activities';
import type { FreezeSyncInput, FreezeSyncResult } from './freezes/freeze-sync-types';
import { freezeSyncInputProblem, type ListRefreshInput, type ListRefreshResult } from './workflow-types';
import { AppError } from '../platform/errors/app-error';
import { toApplicationFailure } from '../platform/errors/temporal-failures';
import { listVersionNoticeWorkflowId } from '../monitors/workflow-ids';
import type { listVersionNoticeWorkflow } from '../monitors/workflow-types';
import { LISTS_ERRORS } from './error-codes';

/** A 120 MB download and parse: minutes at most; a server that cannot be reached is tried again a few times. */
const { refreshSanctionsList } = proxyActivities<ListActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '30s', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 5 },
});

/**
 * One refresh (id `lists-refresh:<list>-<time>`): read the published issue and make it the active version. The
 * same bytes again change nothing; an older issue is refused (LIST_ISSUE_OUTDATED) and the run fails for an
 * operator to see. An applied version then notifies the monitors it touched (listVersionNoticeWorkflow). The
 * activity reads only the worker's configured sources and never forces (LIST_SOURCE_NOT_CONFIGURED otherwise).
 */
export async function listRefreshWorkflow(input: ListRefreshInput): Promise<ListRefreshResult> {
  const result = await refreshSanctionsList(input);
  // A new version re-screens the monitors whose addresses it touched (once per version, by its workflow id).
  if (result.status === 'applied') {
    await executeChild<typeof listVersionNoticeWorkflow>('listVersionNoticeWorkflow', {
      workflowId: listVersionNoticeWorkflowId(result.version),
      args: [{ versionId: result.version, issueDate: result.issueDate }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  }
  return result;
}

/**
 * A few windows of eth_getLogs or TronGrid pages per chain: a minute usually, and each window commits with its
 * cursor, so a retry or the next run goes on from there. Not retried long: the schedule runs again in minutes.
 */
const { syncStablecoinFreezes } = proxyActivities<ListActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '30s', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 3 },
});

/**
 * One freeze sync (id `lists-refresh:freezes-<time>`): each configured chain's USDT/USDC freeze events since its
 * cursor, the chains side by side so one chain's outage does not hold back the other. The run fails (for an
 * operator to see) when a chain failed, after the other has finished. An input that names anything but known
 * chains, each once, fails at once (FREEZE_SOURCE_UNKNOWN) and reads nothing; the activity checks the name again.
 */
export async function freezeSyncWorkflow(input: FreezeSyncInput): Promise<FreezeSyncResult[]> {
  // No command before this, and none for a valid input: histories of valid runs replay unchanged.
  const problem = freezeSyncInputProblem(input);
  if (problem) throw toApplicationFailure(new AppError(LISTS_ERRORS.FREEZE_SOURCE_UNKNOWN, problem));
  const outcomes = await Promise.allSettled(input.sources.map((source) => syncStablecoinFreezes({ source })));
  const failed = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<FreezeSyncResult>).value);
}
