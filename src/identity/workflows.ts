/** Identity workflows: Clerk's user and organization events. Deterministic code only. */
import { getExternalWorkflowHandle, proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { IdentityActivities } from './activities';
import type { ClerkEventInput, ClerkEventResult } from './workflow-types';
import { monitorWorkflowId } from '../monitors/workflow-ids';
import { MONITOR_SIGNALS } from '../monitors/workflow-types';
import { UserIdAttr } from '../platform/temporal/search-attributes';

const { applyClerkEvent } = proxyActivities<IdentityActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * One Clerk delivery (id `clerk:<svix-id>`): the worker verifies its Svix signature again, then creates, updates or
 * deactivates the user (or the organization's account, or a membership) in one transaction claimed by (clerk,
 * svix-id). A user's or organization's deletion also marks its monitors deleted and releases its credit holds in that
 * transaction; then each `monitor:<id>` workflow gets `stop`.
 */
export async function clerkEventWorkflow(input: ClerkEventInput): Promise<ClerkEventResult> {
  const result = await applyClerkEvent(input);
  if (result.userId) upsertSearchAttributes([{ key: UserIdAttr, value: result.userId }]);
  await Promise.all(
    (result.stoppedMonitorIds ?? []).map((monitorId) =>
      getExternalWorkflowHandle(monitorWorkflowId(monitorId))
        .signal(MONITOR_SIGNALS.stop)
        // A monitor whose workflow already ended has nothing to stop.
        .catch(() => undefined),
    ),
  );
  return result;
}
