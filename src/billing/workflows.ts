/** Billing workflows: one per provider event, each applied in one activity transaction claimed by its event id. */
import { proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';
import type { BillingActivities } from './activities';
import type { EventResult, PayFastPaymentInput, PayFastRefundInput, PayPalEventInput } from './workflow-types';
import { UserIdAttr } from '../platform/temporal/search-attributes';

/**
 * One PayPal event (id `paypal:<event id>`): the activity first verifies the signed delivery the input carries, as
 * the api did, and applies only the event read from those bytes (a forged or tampered input fails
 * PAYPAL_EVENT_NOT_AUTHENTIC, recording nothing); it applies the subscription change or grants the payment in
 * one transaction claimed by (paypal, event id), so a retry after the commit changes nothing.
 * A sale that arrives before its subscription is retried with backoff for up to three days (PayPal's
 * own retry window) instead of being dropped. A rejected event completes: re-running cannot change it.
 */
export async function paypalEventWorkflow(input: PayPalEventInput): Promise<EventResult> {
  const { applyPayPalEvent } = proxyActivities<BillingActivities>({
    startToCloseTimeout: '30s',
    scheduleToCloseTimeout: '3 days',
    retry: { initialInterval: input.unknownSubscriptionRetryMs, backoffCoefficient: 2, maximumInterval: '1 hour' },
  });
  const result = await applyPayPalEvent(input);
  if (result.userId) upsertSearchAttributes([{ key: UserIdAttr, value: result.userId }]);
  return result;
}

const payfast = proxyActivities<BillingActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * One PayFast ITN (id `payfast:<pf_payment_id>`; other statuses `payfast:<pf_payment_id>:<status>`, so a
 * logged FAILED can never block the COMPLETE of the same payment). The worker re-verifies the ITN from its
 * signed parameters and, when its own PAYFAST_SERVER_VALIDATION is on, confirms it with PayFast's validate
 * endpoint (retried while it is unreachable); nothing in the input can skip either. Then it is applied in one
 * transaction claimed by (payfast, event id), ledger key 'payfast:<pf_payment_id>', or recorded rejected.
 */
export async function payfastPaymentWorkflow(input: PayFastPaymentInput): Promise<EventResult> {
  const checked = await payfast.checkPayFastItn({
    itn: input.itn,
    validationParamString: input.validationParamString,
  });
  const result =
    checked.refusal === null
      ? await payfast.applyPayFastItn(checked.itn)
      : await payfast.recordPayFastRejection({ itn: checked.itn, detail: checked.refusal });
  if (result.userId) upsertSearchAttributes([{ key: UserIdAttr, value: result.userId }]);
  return result;
}

const refunds = proxyActivities<BillingActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One PayFast refund (id `payfast-refund:<refund id>`): takes back the credits of the refunded payment
 * in one activity transaction claimed by (payfast, refund:<refund id>) and payment_refunds, so
 * concurrent or repeated requests for the same refund take the credits back once.
 */
export async function payfastRefundWorkflow(input: PayFastRefundInput): Promise<EventResult> {
  const result = await refunds.applyPayFastRefund(input);
  if (result.userId) upsertSearchAttributes([{ key: UserIdAttr, value: result.userId }]);
  return result;
}
