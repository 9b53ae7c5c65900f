import type { WebhookEventMetrics } from '../platform/metrics/webhook-events';
import { applyPayFastItn, type PayFastBillingDeps, type PayFastItn } from './payfast/apply-payfast-itn';
import { applyPayFastRefund, type PayFastRefundDeps } from './payfast/apply-payfast-refund';
import { checkPayFastItn, type PayFastItnCheckDeps } from './payfast/check-payfast-itn';
import { payfastEventId } from './workflow-ids';
import { applyPayPalEvent, type PayPalBillingDeps } from './paypal/apply-paypal-event';
import { authenticPayPalEvent, type PayPalEventCheckDeps } from './paypal/authentic-event';
import type { CheckedPayFastItn, PayFastPaymentInput, PayFastRefundInput, PayPalEventInput } from './workflow-types';
import { toApplicationFailure } from '../platform/errors/temporal-failures';
import type { EventResult } from '../platform/webhooks/event-result';

export type BillingActivityDeps = PayPalBillingDeps &
  PayPalEventCheckDeps &
  PayFastBillingDeps &
  PayFastRefundDeps &
  PayFastItnCheckDeps & {
    metrics: WebhookEventMetrics;
  };

/**
 * Payment activities: thin adapters over src/billing, each one transaction. Domain errors carry their code
 * and retryability (a sale before its subscription is retried; a refund of an unknown PayFast payment is not).
 */
export function createBillingActivities(deps: BillingActivityDeps) {
  /** Counts what the event did (and the credits it moved) once its transaction has committed. */
  const counted = (provider: string, result: EventResult): EventResult => {
    deps.metrics.webhookEvent(provider, result);
    return result;
  };
  const failing = (err: unknown): never => {
    throw toApplicationFailure(err);
  };
  return {
    /**
     * First proves the event is PayPal's (its signed delivery verified again, or PayPal's own copy for a workflow
     * started without one; a forged or tampered input fails PAYPAL_EVENT_NOT_AUTHENTIC with nothing recorded), then
     * applies the event read from PayPal's bytes. Idempotency: claim (paypal, event id) + ledger key
     * paypal:<event id> / paypal:sale:<sale id> / paypal:refund:<refund id> / paypal:dispute:<dispute id>:<event id>;
     * a retry after commit is a no-op.
     */
    async applyPayPalEvent(input: PayPalEventInput): Promise<EventResult> {
      const { event, payload } = await authenticPayPalEvent(deps, input).catch(failing);
      return counted('paypal', await applyPayPalEvent(deps, event, payload).catch(failing));
    },

    /** Idempotency: claim (payfast, pf_payment_id[:status]) + ledger key payfast:<pf_payment_id>. */
    async applyPayFastItn(itn: PayFastItn): Promise<EventResult> {
      return counted('payfast', await applyPayFastItn(deps, itn));
    },

    /**
     * Idempotency: claim (payfast, refund:<refund id>) + payment_refunds + ledger key payfast:refund:<refund id>.
     * The route checked that the payment exists, so an unknown one is permanent here, not retried.
     */
    async applyPayFastRefund(input: PayFastRefundInput): Promise<EventResult> {
      return counted('payfast', await applyPayFastRefund(deps, input).catch(failing));
    },

    /**
     * Read-only: re-verifies the ITN from its signed parameters (signature, merchant, input = signed ITN; a forged
     * one fails, not retryable, nothing recorded) and, when this worker's PAYFAST_SERVER_VALIDATION is on, asks
     * PayFast to confirm a COMPLETE (unreachable → retryable failure, so a grant never skips the check).
     */
    async checkPayFastItn(
      input: Pick<PayFastPaymentInput, 'itn' | 'validationParamString'>,
    ): Promise<CheckedPayFastItn> {
      return checkPayFastItn(deps, input).catch(failing);
    },

    /** Records an ITN PayFast did not confirm (insert-once on (payfast, event id)); grants nothing. */
    async recordPayFastRejection(input: { itn: PayFastItn; detail: string }): Promise<EventResult> {
      const eventId = payfastEventId(input.itn.pfPaymentId, input.itn.paymentStatus);
      const checkout = await deps.payfastCheckouts.find(input.itn.mPaymentId);
      const userId = checkout?.userId ?? null;
      const inserted = await deps.webhookEvents.recordOnce({
        provider: 'payfast',
        eventId,
        eventType: input.itn.paymentStatus,
        userId,
        outcome: 'rejected',
        detail: input.detail,
        credits: 0,
        transactionId: null,
        payload: input.itn.fields,
      });
      return counted('payfast', {
        duplicate: !inserted,
        outcome: 'rejected',
        userId,
        credits: 0,
        transactionId: null,
        detail: input.detail,
      });
    },
  };
}

export type BillingActivities = ReturnType<typeof createBillingActivities>;
