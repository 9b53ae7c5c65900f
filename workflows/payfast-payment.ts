import { proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { EventResult, PayFastPaymentInput } from '../src/billing/workflow-types';
import { UserIdAttr } from '../src/platform/temporal/search-attributes';

const activities = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * One PayFast ITN (id `payfast:<pf_payment_id>`; other statuses `payfast:<pf_payment_id>:<status>`, so a
 * logged FAILED can never block the COMPLETE of the same payment). Optionally confirmed with PayFast's
 * validate endpoint (retried while it is unreachable), then applied in one transaction claimed by
 * (payfast, event id), ledger key 'payfast:<pf_payment_id>'.
 */
export async function payfastPaymentWorkflow(input: PayFastPaymentInput): Promise<EventResult> {
  if (input.serverValidation && input.itn.paymentStatus === 'COMPLETE') {
    const confirmed = await activities.confirmPayFastItn({ paramString: input.validationParamString });
    if (!confirmed) return activities.recordPayFastRejection({ itn: input.itn, detail: 'PayFast answered INVALID to /eng/query/validate' });
  }
  const result = await activities.applyPayFastItn(input.itn);
  if (result.userId) upsertSearchAttributes([{ key: UserIdAttr, value: result.userId }]);
  return result;
}
