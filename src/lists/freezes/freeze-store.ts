import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '../../platform/db/transaction';
import { applyFreezeEvent } from './apply-freeze-event';
import type { FreezeChain, FreezeEvent, FreezeToken } from './freeze-event';

/** One contract whose freeze events are read. */
export interface FreezeContract {
  chain: FreezeChain;
  token: FreezeToken;
  /** Lower-case 0x… on the EVM networks, base58 T… on TRON. */
  contract: string;
}

/** How far a contract has been read (see migration 019): EVM networks by block, TRON by block time. */
export interface FreezeCursor {
  lastBlock: bigint | null;
  lastBlockTimestamp: number | null;
}

export interface FreezeStore {
  /** The contract's cursor; null when it has none, or when it was written over another shipped CSV. */
  cursor(contract: FreezeContract): Promise<FreezeCursor | null>;
  /**
   * Applies one window's events (oldest first) and moves the cursor to `next`, in one transaction. Null, with
   * nothing applied, when the cursor is no longer `expected` (another run moved it first); else how many rows
   * the events changed.
   */
  applyWindow(
    contract: FreezeContract,
    expected: FreezeCursor | null,
    events: readonly FreezeEvent[],
    next: FreezeCursor,
  ): Promise<{ changed: number } | null>;
}

interface CursorRow {
  last_block: string | null;
  last_block_timestamp: string | null;
  dataset_sha256: string | null;
}

const sameCursor = (a: FreezeCursor | null, b: FreezeCursor | null): boolean =>
  a === null || b === null ? a === b : a.lastBlock === b.lastBlock && a.lastBlockTimestamp === b.lastBlockTimestamp;

/** The shipped CSV now loaded (reference_datasets), or null when none was. */
async function loadedDataset(db: Pool | PoolClient): Promise<string | null> {
  const { rows } = await db.query<{ sha256: string }>(
    `SELECT sha256 FROM reference_datasets WHERE name = 'stablecoin_blacklist'`,
  );
  return rows[0]?.sha256 ?? null;
}

/**
 * A loaded CSV replaces ref_stablecoin_blacklist whole, taking the events applied since with it: a cursor written
 * over another CSV than the one now loaded counts as none, so the reader starts again from its start setting.
 */
function cursorOf(row: CursorRow | undefined, dataset: string | null): FreezeCursor | null {
  if (!row || (row.last_block === null && row.last_block_timestamp === null)) return null;
  if (row.dataset_sha256 !== dataset) return null;
  return {
    lastBlock: row.last_block === null ? null : BigInt(row.last_block),
    lastBlockTimestamp: row.last_block_timestamp === null ? null : Number(row.last_block_timestamp),
  };
}

export function createFreezeStore(pool: Pool): FreezeStore {
  return {
    async cursor(contract) {
      const [{ rows }, dataset] = await Promise.all([
        pool.query<CursorRow>(
          `SELECT last_block, last_block_timestamp, dataset_sha256 FROM freeze_cursors
           WHERE chain = $1 AND contract = $2`,
          [contract.chain, contract.contract],
        ),
        loadedDataset(pool),
      ]);
      return cursorOf(rows[0], dataset);
    },

    applyWindow(contract, expected, events, next) {
      return inTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO freeze_cursors (chain, contract, token) VALUES ($1, $2, $3)
           ON CONFLICT (chain, contract) DO NOTHING`,
          [contract.chain, contract.contract, contract.token],
        );
        // The row lock orders concurrent runs (a manual trigger beside the schedule's): the second sees the moved
        // cursor and applies nothing.
        const { rows } = await client.query<CursorRow>(
          `SELECT last_block, last_block_timestamp, dataset_sha256 FROM freeze_cursors
           WHERE chain = $1 AND contract = $2 FOR UPDATE`,
          [contract.chain, contract.contract],
        );
        const dataset = await loadedDataset(client);
        if (!sameCursor(cursorOf(rows[0], dataset), expected)) return null;
        let changed = 0;
        for (const event of events) if (await applyFreezeEvent(client, event)) changed += 1;
        await client.query(
          `UPDATE freeze_cursors
           SET last_block = $3, last_block_timestamp = $4, dataset_sha256 = $5, token = $6, updated_at = now()
           WHERE chain = $1 AND contract = $2`,
          [
            contract.chain,
            contract.contract,
            next.lastBlock?.toString() ?? null,
            next.lastBlockTimestamp,
            dataset,
            contract.token,
          ],
        );
        return { changed };
      });
    },
  };
}
