import type { PoolClient } from 'pg';
import type { CreditedPayment, CreditedPaymentStore } from './credited-payments-store';
import type { CreditStore } from './credits-store';
import { disputedCents } from './dispute-state';
import { takebackChange } from './refund-credits';

export interface TakebackLedgerEntry {
  /** Unique per movement: `<provider>:refund:<refund id>`, `paypal:dispute:<dispute id>:<event id>`. */
  idempotencyKey: string;
  reason: string;
  metadata: Record<string, unknown> & { eventId: string };
}

export interface TakebackResult {
  /** Credits taken back (> 0) or reinstated (< 0) by this movement. */
  delta: number;
  transactionId: string | null;
  /** Of a takeback, the part already spent, now owed as debt. */
  debtAdded: number;
}

/**
 * Moves the ledger so that the credits standing taken back from a payment match the money gone back after this
 * refund or dispute (refund-credits.ts): takes back from what is available, the spent rest as debt
 * (revoke_credits), or reinstates through grant_credits, which repays debt first. Runs under the payment's row lock
 * (CreditedPaymentStore.lock), after the refund or dispute row is written, in the caller's transaction.
 */
export async function reconcileTakeback(
  deps: { credits: CreditStore; creditedPayments: CreditedPaymentStore },
  client: PoolClient,
  payment: CreditedPayment,
  refundedCents: number,
  entry: TakebackLedgerEntry,
): Promise<TakebackResult> {
  const disputes = await deps.creditedPayments.listDisputes(client, payment.provider, payment.paymentId);
  const held = disputes.reduce((sum, d) => sum + disputedCents(d), 0);
  const change = takebackChange(payment, { refundedCents, disputedCents: held });
  const ledger = { userId: payment.userId, amount: Math.abs(change.delta), source: payment.provider, ...entry };
  let result: TakebackResult = { delta: 0, transactionId: null, debtAdded: 0 };
  if (change.delta > 0) {
    const revoked = await deps.credits.revoke(ledger, client);
    result = {
      delta: change.delta,
      transactionId: revoked.transactionId,
      debtAdded: change.delta - revoked.fromBalance,
    };
  } else if (change.delta < 0) {
    const granted = await deps.credits.grant(ledger, client);
    result = { delta: change.delta, transactionId: granted.transactionId, debtAdded: 0 };
  }
  await deps.creditedPayments.saveTakeback(client, {
    provider: payment.provider,
    paymentId: payment.paymentId,
    refundedCents,
    creditsRevoked: change.creditsRevoked,
  });
  return result;
}
