import type { Pool } from 'pg';
import type { AddressTransfer, ChainTransaction } from './chain-client';

/** bigint survives jsonb as a tagged string. */
const encode = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? { $bigint: x.toString() } : x));
const decode = <T>(v: unknown): T =>
  JSON.parse(JSON.stringify(v), (_k, x) =>
    x && typeof x === 'object' && typeof x.$bigint === 'string' ? BigInt(x.$bigint) : x,
  ) as T;

export interface CachedTransfers {
  transfers: AddressTransfer[];
  truncated: boolean;
  refreshedAt: Date;
}

/** Postgres store behind the caching chain client. */
export function createChainCacheStore(pool: Pool) {
  return {
    async getTransaction(chain: string, hash: string): Promise<ChainTransaction | null> {
      const { rows } = await pool.query('SELECT body FROM chain_transactions WHERE chain = $1 AND hash = $2', [
        chain,
        hash,
      ]);
      return rows[0] ? decode<ChainTransaction>(rows[0].body) : null;
    },
    async putTransaction(tx: ChainTransaction): Promise<void> {
      await pool.query(
        'INSERT INTO chain_transactions (chain, hash, body) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [tx.chain, tx.hash, encode(tx)],
      );
    },
    async getTransfers(chain: string, address: string): Promise<CachedTransfers | null> {
      const { rows } = await pool.query(
        'SELECT transfers, truncated, refreshed_at FROM chain_address_transfers WHERE chain = $1 AND address = $2',
        [chain, address],
      );
      return rows[0]
        ? {
            transfers: decode<AddressTransfer[]>(rows[0].transfers),
            truncated: rows[0].truncated,
            refreshedAt: rows[0].refreshed_at,
          }
        : null;
    },
    async putTransfers(
      chain: string,
      address: string,
      transfers: AddressTransfer[],
      truncated: boolean,
    ): Promise<void> {
      await pool.query(
        `INSERT INTO chain_address_transfers (chain, address, transfers, truncated) VALUES ($1, $2, $3, $4)
         ON CONFLICT (chain, address) DO UPDATE SET transfers = EXCLUDED.transfers, ` +
          `truncated = EXCLUDED.truncated, refreshed_at = now()`,
        [chain, address, encode(transfers), truncated],
      );
    },
  };
}

export type ChainCacheStore = ReturnType<typeof createChainCacheStore>;
