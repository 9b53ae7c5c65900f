import type { Pool, PoolClient } from 'pg';

export interface PayFastCheckout {
  mPaymentId: string;
  userId: string;
  packageId: string;
  amountCents: number;
  currency: string;
}

/** Checkouts started by signed-in users; an ITN is only ever credited against one of these. */
export function createPayFastCheckoutStore(pool: Pool) {
  return {
    async create(checkout: PayFastCheckout): Promise<void> {
      await pool.query(
        'INSERT INTO payfast_checkouts (m_payment_id, user_id, package_id, amount_cents, currency) ' +
          'VALUES ($1, $2, $3, $4, $5)',
        [checkout.mPaymentId, checkout.userId, checkout.packageId, checkout.amountCents, checkout.currency],
      );
    },

    async find(mPaymentId: string, db: Pool | PoolClient = pool): Promise<PayFastCheckout | null> {
      const { rows } = await db.query<{
        m_payment_id: string;
        user_id: string;
        package_id: string;
        amount_cents: number;
        currency: string;
      }>(
        'SELECT m_payment_id, user_id, package_id, amount_cents, currency ' +
          'FROM payfast_checkouts WHERE m_payment_id = $1',
        [mPaymentId],
      );
      const r = rows[0];
      return r
        ? {
            mPaymentId: r.m_payment_id,
            userId: r.user_id,
            packageId: r.package_id,
            amountCents: Number(r.amount_cents),
            currency: r.currency,
          }
        : null;
    },
  };
}

export type PayFastCheckoutStore = ReturnType<typeof createPayFastCheckoutStore>;
