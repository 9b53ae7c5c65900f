import { proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { EventResult, PayPalEventInput } from '../src/billing/workflow-types';
import { UserIdAttr } from '../src/platform/temporal/search-attributes';

/**
 * One PayPal event (id `paypal:<event id>`): apply the subscription change or grant the payment in
 * one activity transaction claimed by (paypal, event id), so a retry after the commit changes nothing.
 * A sale that arrives before its subscription is retried with backoff for up to three days (PayPal's
 * own retry window) instead of being dropped. A rejected event completes: re-running cannot change it.
 */
export async function paypalEventWorkflow(input: PayPalEventInput): Promise<EventResult> {
  const { applyPayPalEvent } = proxyActivities<Activities>({
    startToCloseTimeout: '30s',
    scheduleToCloseTimeout: '3 days',
    retry: { initialInterval: input.unknownSubscriptionRetryMs, backoffCoefficient: 2, maximumInterval: '1 hour' },
  });
  const result = await applyPayPalEvent(input);
  if (result.userId) upsertSearchAttributes([{ key: UserIdAttr, value: result.userId }]);
  return result;
}
