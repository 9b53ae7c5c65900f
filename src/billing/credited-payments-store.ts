import type { Pool, PoolClient } from 'pg';
import type { DisputeState, DisputeStatus } from './dispute-state';

export type PaymentProvider = 'paypal' | 'payfast';

/** A payment that paid for credits: what it cost, what it paid for, and how much of it came back. */
export interface CreditedPayment {
  provider: PaymentProvider;
  paymentId: string;
  userId: string;
  subscriptionId: string | null;
  cycle: number | null;
  packageId: string | null;
  amountCents: number;
  currency: string;
  credits: number;
  refundedCents: number;
  creditsRevoked: number;
}

export interface PaymentRefund {
  provider: PaymentProvider;
  refundId: string;
  paymentId: string;
  kind: 'refund' | 'reversal';
  amountCents: number;
  creditsRevoked: number;
  transactionId: string | null;
}

const toPayment = (r: Record<string, unknown>): CreditedPayment => ({
  provider: r.provider as PaymentProvider,
  paymentId: String(r.payment_id),
  userId: String(r.user_id),
  subscriptionId: (r.subscription_id as string | null) ?? null,
  cycle: r.cycle === null ? null : Number(r.cycle),
  packageId: (r.package_id as string | null) ?? null,
  amountCents: Number(r.amount_cents),
  currency: String(r.currency),
  credits: Number(r.credits),
  refundedCents: Number(r.refunded_cents),
  creditsRevoked: Number(r.credits_revoked),
});

/** A dispute of a credited payment (payment_disputes, migration 022). */
export interface PaymentDispute extends DisputeState {
  provider: PaymentProvider;
  disputeId: string;
  paymentId: string;
}

const toDispute = (r: Record<string, unknown>): PaymentDispute => ({
  provider: r.provider as PaymentProvider,
  disputeId: String(r.dispute_id),
  paymentId: String(r.payment_id),
  status: r.status as DisputeStatus,
  amountCents: Number(r.amount_cents),
  outcomeCode: (r.outcome_code as string | null) ?? null,
  version: r.version instanceof Date ? r.version.toISOString() : null,
});

/**
 * credited_payments, payment_refunds (migration 015) and payment_disputes (022); writes run inside the caller's
 * transaction, under the payment's row lock (lock()), so the refunds and disputes of one payment apply one at a time.
 */
export function createCreditedPaymentStore(pool: Pool) {
  return {
    /** Records a credited payment once; false when it was already recorded (the payment was credited before). */
    async record(client: PoolClient, p: Omit<CreditedPayment, 'refundedCents' | 'creditsRevoked'>): Promise<boolean> {
      const { rowCount } = await client.query(
        `INSERT INTO credited_payments (provider, payment_id, user_id, subscription_id, cycle, package_id, ` +
          `amount_cents, currency, credits)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (provider, payment_id) DO NOTHING`,
        [
          p.provider,
          p.paymentId,
          p.userId,
          p.subscriptionId,
          p.cycle,
          p.packageId,
          p.amountCents,
          p.currency,
          p.credits,
        ],
      );
      return rowCount === 1;
    },

    /** The payment as stored now (no lock): for checks before a workflow starts. */
    async find(provider: PaymentProvider, paymentId: string): Promise<CreditedPayment | null> {
      const { rows } = await pool.query('SELECT * FROM credited_payments WHERE provider = $1 AND payment_id = $2', [
        provider,
        paymentId,
      ]);
      return rows[0] ? toPayment(rows[0]) : null;
    },

    /** The payment, locked: refunds of one payment apply one at a time. */
    async lock(client: PoolClient, provider: PaymentProvider, paymentId: string): Promise<CreditedPayment | null> {
      const { rows } = await client.query(
        'SELECT * FROM credited_payments WHERE provider = $1 AND payment_id = $2 FOR UPDATE',
        [provider, paymentId],
      );
      return rows[0] ? toPayment(rows[0]) : null;
    },

    /** Claims a refund id; false when that refund was already applied (by any event or request). */
    async claimRefund(
      client: PoolClient,
      r: Omit<PaymentRefund, 'transactionId' | 'creditsRevoked'>,
    ): Promise<boolean> {
      const { rowCount } = await client.query(
        `INSERT INTO payment_refunds (provider, refund_id, payment_id, kind, amount_cents, credits_revoked)
         VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT (provider, refund_id) DO NOTHING`,
        [r.provider, r.refundId, r.paymentId, r.kind, r.amountCents],
      );
      return rowCount === 1;
    },

    async findRefund(client: PoolClient, provider: PaymentProvider, refundId: string): Promise<PaymentRefund | null> {
      const { rows } = await client.query('SELECT * FROM payment_refunds WHERE provider = $1 AND refund_id = $2', [
        provider,
        refundId,
      ]);
      const r = rows[0];
      return r
        ? {
            provider,
            refundId,
            paymentId: r.payment_id,
            kind: r.kind,
            amountCents: Number(r.amount_cents),
            creditsRevoked: Number(r.credits_revoked),
            transactionId: r.transaction_id ?? null,
          }
        : null;
    },

    /** What a claimed refund took back, and its ledger entry (null when it took nothing). */
    async recordRefundTakeback(
      client: PoolClient,
      r: { provider: PaymentProvider; refundId: string; creditsRevoked: number; transactionId: string | null },
    ): Promise<void> {
      await client.query(
        'UPDATE payment_refunds SET credits_revoked = $3, transaction_id = $4 WHERE provider = $1 AND refund_id = $2',
        [r.provider, r.refundId, r.creditsRevoked, r.transactionId],
      );
    },

    /** The payment's refunded total and the credits that now stand taken back. */
    async saveTakeback(
      client: PoolClient,
      p: { provider: PaymentProvider; paymentId: string; refundedCents: number; creditsRevoked: number },
    ): Promise<void> {
      await client.query(
        'UPDATE credited_payments SET refunded_cents = $3, credits_revoked = $4 ' +
          'WHERE provider = $1 AND payment_id = $2',
        [p.provider, p.paymentId, p.refundedCents, p.creditsRevoked],
      );
    },

    async findDispute(
      client: PoolClient,
      provider: PaymentProvider,
      disputeId: string,
    ): Promise<PaymentDispute | null> {
      const { rows } = await client.query('SELECT * FROM payment_disputes WHERE provider = $1 AND dispute_id = $2', [
        provider,
        disputeId,
      ]);
      return rows[0] ? toDispute(rows[0]) : null;
    },

    async saveDispute(client: PoolClient, d: PaymentDispute): Promise<void> {
      await client.query(
        `INSERT INTO payment_disputes (provider, dispute_id, payment_id, amount_cents, status, outcome_code, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (provider, dispute_id) DO UPDATE SET amount_cents = EXCLUDED.amount_cents,
           status = EXCLUDED.status, outcome_code = EXCLUDED.outcome_code, version = EXCLUDED.version,
           updated_at = now()`,
        [d.provider, d.disputeId, d.paymentId, d.amountCents, d.status, d.outcomeCode, d.version],
      );
    },

    async listDisputes(client: PoolClient, provider: PaymentProvider, paymentId: string): Promise<PaymentDispute[]> {
      const { rows } = await client.query(
        'SELECT * FROM payment_disputes WHERE provider = $1 AND payment_id = $2 ORDER BY dispute_id',
        [provider, paymentId],
      );
      return rows.map(toDispute);
    },
  };
}

export type CreditedPaymentStore = ReturnType<typeof createCreditedPaymentStore>;
