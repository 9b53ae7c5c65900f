import { randomUUID } from 'node:crypto';
import { completeItn, signedItn } from '../../test/helpers/billing';
import type { TestStack } from '../../test/helpers/test-stack';
import { clerkDelivery, fixture, FIXTURE_CLERK_USER, paypalVariant, type Delivery } from '../../test/helpers/webhooks';

/** One validly signed delivery and the event id the service records it under in webhook_events. */
export interface SignedDelivery {
  delivery: Delivery;
  eventId: string;
}

export interface Provider {
  name: 'paypal' | 'payfast' | 'clerk';
  route: string;
  /** Builds `count` distinct deliveries, with whatever rows they need to have an effect (users, checkouts). */
  prepare(stack: TestStack, count: number): Promise<SignedDelivery[]>;
}

const newClerkId = () => `user_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

/** PayPal BILLING.SUBSCRIPTION.ACTIVATED for a fresh subscription of a fresh user, signed with the test PKI. */
const paypal: Provider = {
  name: 'paypal',
  route: '/api/v1/billing/paypal/webhook',
  async prepare(stack, count) {
    return Promise.all(
      Array.from({ length: count }, async () => {
        const clerkUserId = newClerkId();
        await stack.createUser({ clerkUserId });
        const subscriptionId = `I-${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;
        const { eventId, ...delivery } = paypalVariant('BILLING.SUBSCRIPTION.ACTIVATED', {
          subscriptionId,
          clerkUserId,
        });
        return { delivery, eventId };
      }),
    );
  },
};

/** PayFast COMPLETE ITN for a checkout of its own, signed with the merchant passphrase. */
const payfast: Provider = {
  name: 'payfast',
  route: '/api/v1/billing/payfast/webhook',
  async prepare(stack, count) {
    const user = await stack.createUser();
    const run = Date.now() % 1e8;
    return Promise.all(
      Array.from({ length: count }, async (_, n) => {
        const mPaymentId = `bench-${run}-${n}`;
        await stack.pool.query(
          `INSERT INTO payfast_checkouts (m_payment_id, user_id, package_id, amount_cents) ` +
            `VALUES ($1, $2, 'pro', 19900)`,
          [mPaymentId, user.id],
        );
        const pfPaymentId = `${run}${n}`;
        const body = signedItn(completeItn({ mPaymentId, pfPaymentId, amount: '199.00', customStr1: user.id }));
        return {
          delivery: { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
          eventId: pfPaymentId,
        };
      }),
    );
  },
};

/** Clerk user.created (the fixture, relabelled for a fresh user), Svix-signed now. */
const clerk: Provider = {
  name: 'clerk',
  route: '/api/webhook/clerk',
  async prepare(_stack, count) {
    const template = fixture('clerk', 'user.created.json').toString('utf8');
    return Array.from({ length: count }, () => {
      const delivery = clerkDelivery(template.split(FIXTURE_CLERK_USER).join(newClerkId()));
      return { delivery, eventId: delivery.headers['svix-id'] as string };
    });
  },
};

export const PROVIDERS: Provider[] = [paypal, payfast, clerk];

/**
 * Waits until every event has an outcome in webhook_events (its workflow ran), so no figure's work leaks into the next.
 */
export async function awaitProcessed(
  stack: TestStack,
  provider: string,
  eventIds: string[],
  timeoutMs = 180_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await stack.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_events WHERE provider = $1 AND event_id = ANY($2)',
      [provider, eventIds],
    );
    const processed = rows[0]?.n ?? 0;
    if (processed === eventIds.length || Date.now() > deadline) return processed;
    await new Promise((r) => setTimeout(r, 250));
  }
}
