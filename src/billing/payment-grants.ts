/** How a verified payment reaches an account: the holder it names, and the grant keyed by the payment. */
import type { PoolClient } from 'pg';
import type { CreditStore } from './credits-store';
import type { User, UserStore } from '../identity';

/** Who a payment names, and the account it credits. */
export interface PaymentHolder {
  /** The user the payment names (custom_id). */
  named: User;
  /** The account credited: the named user's active account (a team they act in), else their own. */
  account: User;
}

/**
 * The account a payment names (an internal UUID or a Clerk user id), only when that user exists. The buyer's own
 * browser sets PayPal's custom_id, so it is never trusted to create an account: an id nobody signed in as (the
 * dashboard provisions a Clerk user at its first request, before any checkout) gets nothing attached. A person who
 * acts in a team is credited there: the account they last acted in with a session while they are still an active
 * member of it (users-store.ts paymentAccountOf). Read in the event's transaction (`client`): a second connection
 * asked for inside it would deadlock the pool once every connection holds such a transaction.
 */
export async function findAccountHolder(
  users: UserStore,
  id: string,
  client: PoolClient,
): Promise<PaymentHolder | null> {
  const named = await users.findByAnyId(id, client);
  if (!named) return null;
  const account = (await users.paymentAccountOf(named.id, client)) ?? named;
  return { named, account };
}

/**
 * Whether a stored holder (of a subscription, a checkout) is what a payment naming `holder.named` may attach to: the
 * account it credits now, the person's own, or a team the person belongs or belonged to (they attached it while
 * acting there, and their later moves do not take it away from the team).
 */
export async function holdsFor(
  users: UserStore,
  holder: PaymentHolder,
  storedUserId: string,
  client: PoolClient,
): Promise<boolean> {
  if (storedUserId === holder.account.id || storedUserId === holder.named.id) return true;
  return users.wasMemberOf(storedUserId, holder.named.id, client);
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
