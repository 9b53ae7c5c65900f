import type { PoolClient } from 'pg';
import type { FreezeEvent } from './freeze-event';

/** What a row applied from the chain names as its source (the shipped rows say `usdt-contract-events-<date>`). */
export const syncedSource = (event: FreezeEvent): string => `${event.token.toLowerCase()}-contract-events-sync`;

/** 6-decimal units → a decimal string (both tokens have 6 decimals), as the CSV writes destroyed_usdt. */
export function tokenUnits(amount: bigint): string {
  const whole = amount / 1_000_000n;
  const fraction = (amount % 1_000_000n).toString().padStart(6, '0');
  return `${whole}.${fraction}`;
}

/**
 * Upserts one event into ref_stablecoin_blacklist by (chain, token, address), only when it is newer than what the
 * row holds: by (block, index) when the row came from the chain, by time (and a different transaction) when it
 * is a shipped row without a position. So re-reading a window, or an event older than the stored one, changes
 * nothing, and a destroyed balance is added once. `add`/`remove` set the status and the last event; `destroy`
 * adds to destroyed_usdt and leaves them (the CSV's `last_event` is add or remove, and Tether destroys only
 * frozen funds). Returns whether the row changed.
 */
export async function applyFreezeEvent(client: PoolClient, event: FreezeEvent): Promise<boolean> {
  const result = await client.query(
    `INSERT INTO ref_stablecoin_blacklist AS b
       (chain, token, address, status, first_blacklisted_at, last_event, last_event_at, last_event_tx,
        destroyed_usdt, source, last_event_block, last_event_index)
     VALUES ($1, $2, $3,
             CASE WHEN $4::text = 'remove' THEN 'removed' ELSE 'blacklisted' END,
             CASE WHEN $4::text = 'add' THEN $5::text END,
             CASE WHEN $4::text <> 'destroy' THEN $4::text END,
             CASE WHEN $4::text <> 'destroy' THEN $5::text END,
             CASE WHEN $4::text <> 'destroy' THEN $6::text END,
             trim_scale($7::numeric)::text, $8, $9, $10)
     ON CONFLICT (chain, token, address) DO UPDATE SET
       status = CASE WHEN $4::text = 'destroy' THEN b.status ELSE EXCLUDED.status END,
       first_blacklisted_at = coalesce(b.first_blacklisted_at, EXCLUDED.first_blacklisted_at),
       last_event = coalesce(EXCLUDED.last_event, b.last_event),
       last_event_at = coalesce(EXCLUDED.last_event_at, b.last_event_at),
       last_event_tx = coalesce(EXCLUDED.last_event_tx, b.last_event_tx),
       destroyed_usdt = CASE WHEN $4::text = 'destroy'
         THEN trim_scale(coalesce(nullif(b.destroyed_usdt, '')::numeric, 0) + $7::numeric)::text
         ELSE b.destroyed_usdt END,
       source = CASE WHEN $4::text = 'destroy' THEN b.source ELSE EXCLUDED.source END,
       last_event_block = EXCLUDED.last_event_block,
       last_event_index = EXCLUDED.last_event_index
     WHERE CASE
       WHEN b.last_event_block IS NOT NULL
         THEN (b.last_event_block, b.last_event_index) < (EXCLUDED.last_event_block, EXCLUDED.last_event_index)
       ELSE b.last_event_at IS NULL OR b.last_event_at < $5::text
         OR (b.last_event_at = $5::text AND b.last_event_tx IS DISTINCT FROM $6::text)
     END`,
    [
      event.chain,
      event.token,
      event.address,
      event.kind,
      event.at,
      event.tx,
      event.kind === 'destroy' ? tokenUnits(event.amount ?? 0n) : null,
      syncedSource(event),
      event.block.toString(),
      event.index,
    ],
  );
  return (result.rowCount ?? 0) > 0;
}
