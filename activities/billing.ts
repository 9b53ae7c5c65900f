import { ApplicationFailure } from '@temporalio/common';
import { applyPayFastItn, type PayFastBillingDeps, type PayFastItn } from '../src/billing/payfast/apply-payfast-itn';
import { payfastEventId } from '../src/billing/payfast/payfast-event-id';
import { applyPayPalEvent, SubscriptionNotKnownYetError, type PayPalBillingDeps } from '../src/billing/paypal/apply-paypal-event';
import { PaymentNotKnownYetError } from '../src/billing/apply-refund';
import { applyPayFastRefund, type PayFastRefundDeps } from '../src/billing/payfast/apply-payfast-refund';
import type { EventResult } from '../src/billing/event-result';
import { applyClerkEvent, type ClerkEventInput } from '../src/identity/apply-clerk-event';
import type { WorkerMetrics } from '../src/app/metrics/worker-metrics';
import { PayFastUnavailableError } from '../src/billing/payfast/errors';
import type { PayFastRefundInput, PayPalEventInput } from '../src/billing/workflow-types';
import { ErrorType } from '../src/screening/workflow-types';

export type BillingActivityDeps = PayPalBillingDeps &
  PayFastBillingDeps &
  PayFastRefundDeps & {
    /** PayFast's /eng/query/validate (absent when server validation is off). */
    confirmWithPayFast?: (paramString: string) => Promise<boolean>;
    metrics: Pick<WorkerMetrics, 'webhookEvent'>;
  };

/** Payment and identity activities: thin adapters over src/billing and src/identity, each one transaction. */
export function createBillingActivities(deps: BillingActivityDeps) {
  /** Counts what the event did (and the credits it moved) once its transaction has committed. */
  const counted = (provider: string, result: EventResult): EventResult => {
    deps.metrics.webhookEvent(provider, result);
    return result;
  };
  return {
    /** Idempotency: claim (paypal, event id) + ledger key paypal:<event id> / paypal:sale:<sale id> / paypal:refund:<refund id>; a retry after commit is a no-op. */
    async applyPayPalEvent(input: PayPalEventInput): Promise<EventResult> {
      try {
        return counted('paypal', await applyPayPalEvent(deps, input.event, input.payload));
      } catch (err) {
        if (err instanceof SubscriptionNotKnownYetError) throw ApplicationFailure.retryable(err.message, ErrorType.SubscriptionNotKnownYet);
        if (err instanceof PaymentNotKnownYetError) throw ApplicationFailure.retryable(err.message, ErrorType.PaymentNotKnownYet);
        throw err;
      }
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
      try {
        return counted('payfast', await applyPayFastRefund(deps, input));
      } catch (err) {
        if (err instanceof PaymentNotKnownYetError) throw ApplicationFailure.nonRetryable(err.message, ErrorType.PaymentNotKnownYet);
        throw err;
      }
    },

    /** Read-only postback to PayFast; unreachable → retryable failure, so a grant never skips the check. */
    async confirmPayFastItn(input: { paramString: string }): Promise<boolean> {
      if (!deps.confirmWithPayFast) throw ApplicationFailure.nonRetryable('PayFast server validation is not configured on this worker', ErrorType.PayFastUnavailable);
      try {
        return await deps.confirmWithPayFast(input.paramString);
      } catch (err) {
        if (err instanceof PayFastUnavailableError) throw ApplicationFailure.retryable(err.message, ErrorType.PayFastUnavailable);
        throw err;
      }
    },

    /** Records an ITN PayFast did not confirm (insert-once on (payfast, event id)); grants nothing. */
    async recordPayFastRejection(input: { itn: PayFastItn; detail: string }): Promise<EventResult> {
      const eventId = payfastEventId(input.itn.pfPaymentId, input.itn.paymentStatus);
      const checkout = await deps.payfastCheckouts.find(input.itn.mPaymentId);
      const inserted = await deps.webhookEvents.recordOnce({
        provider: 'payfast', eventId, eventType: input.itn.paymentStatus, userId: checkout?.userId ?? null,
        outcome: 'rejected', detail: input.detail, credits: 0, transactionId: null, payload: input.itn.fields,
      });
      return counted('payfast', { duplicate: !inserted, outcome: 'rejected', userId: checkout?.userId ?? null, credits: 0, transactionId: null, detail: input.detail });
    },

    /** Idempotency: claim (clerk, svix-id); profile changes are guarded by the event time. */
    async applyClerkEvent(input: ClerkEventInput): Promise<EventResult> {
      return counted('clerk', await applyClerkEvent(deps, input));
    },
  };
}
