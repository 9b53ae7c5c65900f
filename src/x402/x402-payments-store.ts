import type { Pool } from 'pg';
import type { ReportKind } from './constants';
import type { PaymentIdentity } from './payment-identity';

/** The primary key of a claim: the payment's identity on chain, spelled as stored. */
const keyOf = (id: PaymentIdentity) => [id.network, id.contract, id.payer.toLowerCase(), id.nonce];

/**
 * What a claim attempt found: the payment is now this request's; it was claimed before (a replay, or the same payment
 * sent twice at once); or its payer already has a report whose payment is not settled yet (one at a time per payer and
 * network).
 */
export type ClaimOutcome = 'claimed' | 'duplicate' | 'payer_busy';

/**
 * Claims on payments, one row per on-chain identity (payment-identity.ts): the first request holding a payment runs
 * the report; a failed one gives it back. Idempotency key: (network, contract, payer, nonce). A payer has at most one
 * claim 'processing' at a time (migration 028's partial unique index): the facilitator's verify only simulates the
 * transfer, so this is what keeps N authorizations against a balance that covers one from running N reports.
 */
export function createX402PaymentStore(pool: Pool) {
  return {
    /**
     * Claims the payment for the report `requestId` (drawn before the claim: the worker runs that report only while
     * this claim is live). A claim of this payer left 'processing' for longer than `staleAfterMs` (its api stopped
     * mid-report) is abandoned first, so it cannot block the payer for ever; its nonce stays claimed.
     */
    async claim(
      id: PaymentIdentity,
      claim: { report: ReportKind; amount: string; asset: string; requestId: string; staleAfterMs: number },
    ): Promise<ClaimOutcome> {
      await pool.query(
        `UPDATE x402_payments SET status = 'abandoned'
         WHERE network = $1 AND lower(payer) = $2 AND status = 'processing'
           AND created_at < now() - make_interval(secs => $3::double precision / 1000)`,
        [id.network, id.payer.toLowerCase(), claim.staleAfterMs],
      );
      // ON CONFLICT without a target: both the payment's key and the one-per-payer index refuse the insert.
      const { rowCount } = await pool.query(
        `INSERT INTO x402_payments (network, contract, payer, nonce, method, report, status, amount, asset, request_id)
         VALUES ($1, $2, $3, $4, $5, $6, 'processing', $7, $8, $9)
         ON CONFLICT DO NOTHING`,
        [...keyOf(id), id.method, claim.report, claim.amount, claim.asset, claim.requestId],
      );
      if (rowCount === 1) return 'claimed';
      const { rows } = await pool.query(
        'SELECT 1 FROM x402_payments WHERE network = $1 AND contract = $2 AND payer = $3 AND nonce = $4',
        keyOf(id),
      );
      return rows.length > 0 ? 'duplicate' : 'payer_busy';
    },
    /**
     * Gives a claim back (report failed or its payment settlement failed): nothing was charged, the payer may retry.
     */
    async release(id: PaymentIdentity): Promise<void> {
      await pool.query(
        `DELETE FROM x402_payments
         WHERE network = $1 AND contract = $2 AND payer = $3 AND nonce = $4 AND status = 'processing'`,
        keyOf(id),
      );
    },
    async settled(id: PaymentIdentity, transaction: string | null): Promise<void> {
      await pool.query(
        `UPDATE x402_payments SET status = 'settled', transaction = $5, settled_at = now()
         WHERE network = $1 AND contract = $2 AND payer = $3 AND nonce = $4`,
        [...keyOf(id), transaction],
      );
    },
    /**
     * The report a live claim pays for under this request id, or null (none, its payment settled, given back or
     * abandoned).
     */
    async processingReport(requestId: string): Promise<ReportKind | null> {
      const { rows } = await pool.query<{ report: ReportKind }>(
        `SELECT report FROM x402_payments WHERE request_id = $1::text::uuid AND status = 'processing'`,
        [requestId],
      );
      return rows[0]?.report ?? null;
    },
  };
}

export type X402PaymentStore = ReturnType<typeof createX402PaymentStore>;
