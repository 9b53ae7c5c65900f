/** How a verified payment reaches an account: the holder it names, and the grant keyed by the payment. */
import type { PoolClient } from 'pg';
import type { CreditStore } from './credits-store';
import type { User, UserStore } from '../identity';

export const CLERK_USER_ID = /^user_[A-Za-z0-9]{10,64}$/;

/**
 * The account a payment names: an internal UUID or a Clerk user id. A Clerk id seen before Clerk's
 * user.created arrives is provisioned (0 credits), so a payment never waits on identity webhooks.
 */
export async function resolveAccountHolder(users: UserStore, id: string): Promise<User | null> {
  const found = await users.findByAnyId(id);
  if (found) return found;
  return CLERK_USER_ID.test(id) ? users.provisionClerkUser(id, null) : null;
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
