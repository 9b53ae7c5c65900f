import type { Pool } from 'pg';
import type { CreditedPaymentStore } from '../credited-payments-store';
import type { CreditStore } from '../credits-store';
import { inTransaction } from '../../platform/db/transaction';
import type { WebhookEventStore } from '../../platform/webhooks/webhook-events-store';
import type { PayFastRefundInput } from '../workflow-types';
import { applyRefund, PaymentNotKnownYetError } from '../apply-refund';
import { previousResult, recordEventOutcome, type EventResult } from '../../platform/webhooks/event-result';
import { RefundNotRecordedError } from './errors';
import { sameRefund, type PayFastRefundRecordStore } from './payfast-refund-records-store';

export interface PayFastRefundDeps {
  pool: Pool;
  credits: CreditStore;
  creditedPayments: CreditedPaymentStore;
  webhookEvents: WebhookEventStore;
  payfastRefundRecords: Pick<PayFastRefundRecordStore, 'find'>;
}

/** The inbox id of a recorded PayFast refund: beside the ITNs' `<pf_payment_id>[:<status>]`, never equal to one. */
export const payfastRefundEventId = (refundId: string): string => `refund:${refundId}`;

/**
 * Applies a recorded PayFast refund in one transaction: check that the api recorded this refund for this payment
 * and amount (the workflow input alone proves nothing: anyone who can start a workflow can write it), claim
 * (payfast, refund:<refund id>), take the payment's credits back in proportion (apply-refund.ts), record the outcome.
 */
export async function applyPayFastRefund(deps: PayFastRefundDeps, input: PayFastRefundInput): Promise<EventResult> {
  const eventId = payfastRefundEventId(input.refundId);
  return inTransaction(deps.pool, async (client) => {
    const recorded = await deps.payfastRefundRecords.find(input.refundId, client);
    // Refused before the claim, so nothing is recorded under the refund id and the admin can still record it.
    if (!recorded) throw new RefundNotRecordedError(`refund ${input.refundId} was not recorded through the api`);
    if (!sameRefund(recorded, input)) {
      throw new RefundNotRecordedError(
        `refund ${input.refundId} was recorded for payment ${recorded.pfPaymentId} and amount ` +
          `${recorded.amountCents ?? 'all'}, not ${input.pfPaymentId} and ${input.amountCents ?? 'all'}`,
      );
    }
    // The inbox keeps the refund as recorded, not the input's reason or recorder, which nothing checked.
    if (!(await deps.webhookEvents.claim(client, 'payfast', eventId, 'REFUND', recorded))) {
      return previousResult(client, deps.webhookEvents, 'payfast', eventId);
    }
    const result = await applyRefund(deps, client, {
      provider: 'payfast',
      refundId: input.refundId,
      paymentId: input.pfPaymentId,
      kind: 'refund',
      amountCents: input.amountCents,
      currency: 'ZAR',
      eventId,
    }).catch((err: unknown) => {
      // The route checked that the payment exists, so here an unknown one is permanent, not worth retrying.
      if (err instanceof PaymentNotKnownYetError)
        throw new PaymentNotKnownYetError(err.provider, err.paymentId, { retryable: false });
      throw err;
    });
    return recordEventOutcome(client, deps.webhookEvents, 'payfast', eventId, result);
  });
}
