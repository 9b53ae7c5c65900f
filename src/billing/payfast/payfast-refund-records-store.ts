import type { Pool, PoolClient } from 'pg';

/** A PayFast refund as the admin recorded it through the api: the only refunds a refund workflow may apply. */
export interface PayFastRefundRecord {
  refundId: string;
  pfPaymentId: string;
  /** Money returned in cents (ZAR); null = everything not refunded yet. */
  amountCents: number | null;
  reason: string | null;
  recordedBy: string;
}

interface Row {
  refund_id: string;
  pf_payment_id: string;
  amount_cents: string | null;
  reason: string | null;
  recorded_by: string;
}

const COLUMNS = 'refund_id, pf_payment_id, amount_cents, reason, recorded_by';

const toRecord = (r: Row): PayFastRefundRecord => ({
  refundId: r.refund_id,
  pfPaymentId: r.pf_payment_id,
  amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
  reason: r.reason,
  recordedBy: r.recorded_by,
});

/** The same refund: payment and amount (the reason and who recorded it may differ on a resubmission). */
export const sameRefund = (a: PayFastRefundRecord, b: Pick<PayFastRefundRecord, 'pfPaymentId' | 'amountCents'>) =>
  a.pfPaymentId === b.pfPaymentId && a.amountCents === b.amountCents;

export function createPayFastRefundRecordStore(pool: Pool) {
  const find = async (refundId: string, db: Pool | PoolClient = pool): Promise<PayFastRefundRecord | null> => {
    const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM payfast_refund_records WHERE refund_id = $1`, [
      refundId,
    ]);
    return rows[0] ? toRecord(rows[0]) : null;
  };

  return {
    /**
     * Records the refund once per refund id and returns the stored record: this one, or the first one recorded
     * under that id (possibly for another payment or amount, which the caller refuses). Idempotency key: refund_id.
     */
    async record(refund: PayFastRefundRecord): Promise<{ record: PayFastRefundRecord; inserted: boolean }> {
      // ON CONFLICT DO NOTHING returns no row for the loser of a race; the SELECT then reads the winner's row,
      // which its committed INSERT made visible (the conflict check waited for it).
      const inserted = await pool.query<Row>(
        `INSERT INTO payfast_refund_records (refund_id, pf_payment_id, amount_cents, reason, recorded_by)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (refund_id) DO NOTHING RETURNING ${COLUMNS}`,
        [refund.refundId, refund.pfPaymentId, refund.amountCents, refund.reason, refund.recordedBy],
      );
      if (inserted.rows[0]) return { record: toRecord(inserted.rows[0]), inserted: true };
      const existing = await find(refund.refundId);
      if (!existing) throw new Error(`refund ${refund.refundId} neither inserted nor found`);
      return { record: existing, inserted: false };
    },

    /** The record of a refund id (in the caller's transaction when given). */
    find,
  };
}

export type PayFastRefundRecordStore = ReturnType<typeof createPayFastRefundRecordStore>;
