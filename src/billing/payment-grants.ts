/** How a verified payment reaches an account: the holder it names, and the grant keyed by the payment. */
import type { PoolClient } from 'pg';
import type { CreditStore } from './credits-store';
import type { User, UserStore } from '../identity';

/**
 * The account a payment names (an internal UUID or a Clerk user id), only when that user exists. The buyer's own
 * browser sets PayPal's custom_id, so it is never trusted to create an account: an id nobody signed in as (the
 * dashboard provisions a Clerk user at its first request, before any checkout) gets nothing attached.
 */
export async function findAccountHolder(users: UserStore, id: string): Promise<User | null> {
  return users.findByAnyId(id);
}

export interface GrantRequest {
  client: PoolClient;
  credits: CreditStore;
  userId: string;
  amount: number;
  idempotencyKey: string;
  reason: string;
  source: 'paypal' | 'payfast';
  metadata: Record<string, unknown> & { eventId: string };
}

/**
 * Grants through grant_credits, the same stored function as POST /api/v1/credits/grant. The ledger
 * key is the payment's business key, so a second event for the same payment grants nothing.
 */
export async function grantForPayment(g: GrantRequest): Promise<{ transactionId: string; duplicate: boolean }> {
  const r = await g.credits.grant(
    {
      userId: g.userId,
      amount: g.amount,
      idempotencyKey: g.idempotencyKey,
      reason: g.reason,
      source: g.source,
      metadata: g.metadata,
    },
    g.client,
  );
  return { transactionId: r.transactionId, duplicate: r.duplicate };
}
