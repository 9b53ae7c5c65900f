import type { Pool, PoolClient } from 'pg';
import type { WebhookProvider } from './webhook-provider';

/**
 * What processing an event did; `granted`, `revoked` (credits taken back: `credits` is then negative) and `applied`
 * change state, the others are audit only.
 */
export type WebhookOutcome = 'granted' | 'revoked' | 'applied' | 'logged' | 'ignored' | 'rejected';

export interface WebhookEventRecord {
  provider: WebhookProvider;
  eventId: string;
  eventType: string;
  userId: string | null;
  outcome: WebhookOutcome;
  detail: string | null;
  credits: number;
  transactionId: string | null;
  payload: unknown;
}

export interface StoredWebhookEvent {
  outcome: WebhookOutcome;
  detail: string | null;
  credits: number;
  userId: string | null;
  transactionId: string | null;
}

/** The inbox of provider events: unique (provider, event_id) is the permanent guard against double processing. */
export function createWebhookEventStore(pool: Pool) {
  return {
    /**
     * Claims the event inside the caller's transaction. False when it was already processed: the caller
     * then changes nothing. A concurrent twin waits on the unique key and then sees the first commit.
     */
    async claim(
      client: PoolClient,
      provider: WebhookProvider,
      eventId: string,
      eventType: string,
      payload: unknown,
    ): Promise<boolean> {
      const { rowCount } = await client.query(
        `INSERT INTO webhook_events (provider, event_id, event_type, outcome, payload) ` +
          `VALUES ($1, $2, $3, 'ignored', $4)
         ON CONFLICT (provider, event_id) DO NOTHING`,
        [provider, eventId, eventType, JSON.stringify(payload ?? {})],
      );
      return rowCount === 1;
    },

    /** Records what the claimed event did, in the same transaction as the effect itself. */
    async recordOutcome(client: PoolClient, record: Omit<WebhookEventRecord, 'payload' | 'eventType'>): Promise<void> {
      await client.query(
        `UPDATE webhook_events SET user_id = $3, outcome = $4, detail = $5, credits = $6, ` +
          `transaction_id = $7, processed_at = now()
         WHERE provider = $1 AND event_id = $2`,
        [
          record.provider,
          record.eventId,
          record.userId,
          record.outcome,
          record.detail,
          record.credits,
          record.transactionId,
        ],
      );
    },

    /** Records an event in one statement (events with no other effect); a repeat keeps the first record. */
    async recordOnce(record: WebhookEventRecord, db: Pool | PoolClient = pool): Promise<boolean> {
      const { rowCount } = await db.query(
        `INSERT INTO webhook_events (provider, event_id, event_type, user_id, outcome, detail, ` +
          `credits, transaction_id, payload)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (provider, event_id) DO NOTHING`,
        [
          record.provider,
          record.eventId,
          record.eventType,
          record.userId,
          record.outcome,
          record.detail,
          record.credits,
          record.transactionId,
          JSON.stringify(record.payload ?? {}),
        ],
      );
      return rowCount === 1;
    },

    async find(
      provider: WebhookProvider,
      eventId: string,
      db: Pool | PoolClient = pool,
    ): Promise<StoredWebhookEvent | null> {
      const { rows } = await db.query<{
        outcome: WebhookOutcome;
        detail: string | null;
        credits: number;
        user_id: string | null;
        transaction_id: string | null;
      }>(
        'SELECT outcome, detail, credits, user_id, transaction_id FROM webhook_events ' +
          'WHERE provider = $1 AND event_id = $2',
        [provider, eventId],
      );
      const r = rows[0];
      return r
        ? {
            outcome: r.outcome,
            detail: r.detail,
            credits: r.credits,
            userId: r.user_id,
            transactionId: r.transaction_id,
          }
        : null;
    },
  };
}

export type WebhookEventStore = ReturnType<typeof createWebhookEventStore>;
