import type { Pool, PoolClient } from 'pg';
import { isPaymentFlagged, type SubscriptionState } from './subscription-state';

export interface StoredSubscription extends SubscriptionState {
  subscriptionId: string;
  userId: string;
}

const iso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : null);

const COLUMNS =
  `subscription_id, user_id, plan_id, package_id, status, next_billing_time, ` +
  `last_payment_at, last_failed_payment_at,
  last_failure_reason, cancelled_at, advance_unsettled, provider_updated_at, sales_credited`;

function toSubscription(r: Record<string, unknown>): StoredSubscription {
  return {
    subscriptionId: String(r.subscription_id),
    userId: String(r.user_id),
    planId: (r.plan_id as string | null) ?? null,
    packageId: (r.package_id as string | null) ?? null,
    status: String(r.status),
    nextBillingTime: iso(r.next_billing_time),
    lastPaymentAt: iso(r.last_payment_at),
    lastFailedPaymentAt: iso(r.last_failed_payment_at),
    lastFailureReason: (r.last_failure_reason as string | null) ?? null,
    cancelledAt: iso(r.cancelled_at),
    providerUpdatedAt: iso(r.provider_updated_at),
    salesCredited: Number(r.sales_credited ?? 0),
    advanceUnsettled: Number(r.advance_unsettled ?? 0),
  };
}

/**
 * PayPal subscriptions. Every read for a change takes the row lock, so events of one subscription apply one at a time.
 */
export function createSubscriptionStore(pool: Pool) {
  return {
    async lock(client: PoolClient, subscriptionId: string): Promise<StoredSubscription | null> {
      const { rows } = await client.query(
        `SELECT ${COLUMNS} FROM subscriptions WHERE provider = 'paypal' AND subscription_id = $1 FOR UPDATE`,
        [subscriptionId],
      );
      return rows[0] ? toSubscription(rows[0]) : null;
    },

    /** The row for this subscription, created empty (status PENDING, no version) on first sight, locked. */
    async lockOrCreate(client: PoolClient, subscriptionId: string, userId: string): Promise<StoredSubscription> {
      await client.query(
        `INSERT INTO subscriptions (provider, subscription_id, user_id, status) VALUES ('paypal', $1, $2, 'PENDING')
         ON CONFLICT (provider, subscription_id) DO NOTHING`,
        [subscriptionId, userId],
      );
      return (await this.lock(client, subscriptionId)) as StoredSubscription;
    },

    async save(client: PoolClient, s: StoredSubscription): Promise<void> {
      await client.query(
        `UPDATE subscriptions SET plan_id = $2, package_id = $3, status = $4, ` +
          `next_billing_time = $5, last_payment_at = $6,
           last_failed_payment_at = $7, last_failure_reason = $8, cancelled_at = $9, advance_unsettled = $10,
           provider_updated_at = $11, sales_credited = $12, updated_at = now()
         WHERE provider = 'paypal' AND subscription_id = $1`,
        [
          s.subscriptionId,
          s.planId,
          s.packageId,
          s.status,
          s.nextBillingTime,
          s.lastPaymentAt,
          s.lastFailedPaymentAt,
          s.lastFailureReason,
          s.cancelledAt,
          s.advanceUnsettled,
          s.providerUpdatedAt,
          s.salesCredited,
        ],
      );
    },

    async listForUser(userId: string): Promise<StoredSubscription[]> {
      const { rows } = await pool.query(`SELECT ${COLUMNS} FROM subscriptions WHERE user_id = $1 ORDER BY created_at`, [
        userId,
      ]);
      return rows.map(toSubscription);
    },

    /** True when one of the user's subscriptions is flagged (suspended, or its last payment failed). */
    async hasFailedPayment(userId: string, db: Pool | PoolClient = pool): Promise<boolean> {
      const { rows } = await db.query(`SELECT ${COLUMNS} FROM subscriptions WHERE user_id = $1`, [userId]);
      return rows.map(toSubscription).some(isPaymentFlagged);
    },
  };
}

export type SubscriptionStore = ReturnType<typeof createSubscriptionStore>;
