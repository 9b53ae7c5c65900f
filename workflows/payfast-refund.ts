import { proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { EventResult, PayFastRefundInput } from '../src/billing/workflow-types';
import { UserIdAttr } from '../src/platform/temporal/search-attributes';

const { applyPayFastRefund } = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One PayFast refund (id `payfast-refund:<refund id>`): takes back the credits of the refunded payment
 * in one activity transaction claimed by (payfast, refund:<refund id>) and payment_refunds, so
 * concurrent or repeated requests for the same refund take the credits back once.
 */
export async function payfastRefundWorkflow(input: PayFastRefundInput): Promise<EventResult> {
  const result = await applyPayFastRefund(input);
  if (result.userId) upsertSearchAttributes([{ key: UserIdAttr, value: result.userId }]);
  return result;
}
