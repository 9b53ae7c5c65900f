/** Identity workflows: Clerk's user events. Deterministic code only. */
import { proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { IdentityActivities } from '../activities/identity';
import type { ClerkEventInput, EventResult } from '../src/identity/workflow-types';
import { UserIdAttr } from '../src/platform/temporal/search-attributes';

const { applyClerkEvent } = proxyActivities<IdentityActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * One Clerk delivery (id `clerk:<svix-id>`): create, update or deactivate the user in one transaction
 * claimed by (clerk, svix-id).
 */
export async function clerkEventWorkflow(input: ClerkEventInput): Promise<EventResult> {
  const result = await applyClerkEvent(input);
  if (result.userId) upsertSearchAttributes([{ key: UserIdAttr, value: result.userId }]);
  return result;
}
