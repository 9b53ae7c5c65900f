import type { Pool } from 'pg';

export interface PaymentKey {
  network: string;
  payer: string;
  nonce: string;
}

/** Claims on EIP-3009 authorizations: the first request holding one runs the report; a failed one gives it back. */
export function createX402PaymentStore(pool: Pool) {
  return {
    async claim(key: PaymentKey, report: 'kyt' | 'kya' | 'kye', amount: string, asset: string): Promise<boolean> {
      const { rowCount } = await pool.query(
        `INSERT INTO x402_payments (network, payer, nonce, report, status, amount, asset) VALUES ($1, $2, $3, ` +
          `$4, 'processing', $5, $6)
         ON CONFLICT DO NOTHING`,
        [key.network, key.payer.toLowerCase(), key.nonce.toLowerCase(), report, amount, asset],
      );
      return rowCount === 1;
    },
    /** Gives a claim back (report failed or settlement failed): nothing was charged, the payer may retry. */
    async release(key: PaymentKey): Promise<void> {
      await pool.query(
        `DELETE FROM x402_payments WHERE network = $1 AND payer = $2 AND nonce = $3 AND status = 'processing'`,
        [key.network, key.payer.toLowerCase(), key.nonce.toLowerCase()],
      );
    },
    async settled(key: PaymentKey, transaction: string | null): Promise<void> {
      await pool.query(
        `UPDATE x402_payments SET status = 'settled', transaction = $4, settled_at = now() WHERE network = $1 ` +
          `AND payer = $2 AND nonce = $3`,
        [key.network, key.payer.toLowerCase(), key.nonce.toLowerCase(), transaction],
      );
    },
  };
}

export type X402PaymentStore = ReturnType<typeof createX402PaymentStore>;
