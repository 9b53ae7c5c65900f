import type { Pool } from 'pg';
import type { ReportKind } from './constants';
import type { PaymentIdentity } from './payment-identity';

/** The primary key of a claim: the payment's identity on chain, spelled as stored. */
const keyOf = (id: PaymentIdentity) => [id.network, id.contract, id.payer.toLowerCase(), id.nonce];

/**
 * Claims on payments, one row per on-chain identity (payment-identity.ts): the first request holding a payment runs
 * the report; a failed one gives it back. Idempotency key: (network, contract, payer, nonce).
 */
export function createX402PaymentStore(pool: Pool) {
  return {
    async claim(id: PaymentIdentity, report: ReportKind, amount: string, asset: string): Promise<boolean> {
      const { rowCount } = await pool.query(
        `INSERT INTO x402_payments (network, contract, payer, nonce, method, report, status, amount, asset)
         VALUES ($1, $2, $3, $4, $5, $6, 'processing', $7, $8)
         ON CONFLICT DO NOTHING`,
        [...keyOf(id), id.method, report, amount, asset],
      );
      return rowCount === 1;
    },
    /** Gives a claim back (report failed or settlement failed): nothing was charged, the payer may retry. */
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
  };
}

export type X402PaymentStore = ReturnType<typeof createX402PaymentStore>;
