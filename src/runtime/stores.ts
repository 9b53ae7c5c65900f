import type { Pool } from 'pg';
import { createActivityHistoryStore } from '../db/activity-history';
import { createCreditStore } from '../db/credits';
import { createCreditedPaymentStore } from '../db/credited-payments';
import { createJobStore } from '../db/jobs';
import { createPackageStore } from '../db/packages';
import { createPayFastCheckoutStore } from '../db/payfast-checkouts';
import { createSubscriptionStore } from '../db/subscriptions';
import { createWebhookEventStore } from '../db/webhook-events';
import { createEntityStore } from '../db/entities';
import { createX402PaymentStore } from '../db/x402-payments';
import { createUserStore } from '../db/users';
import { createMarketStore } from '../db/market-candles';

/** Every Postgres-backed store over one pool. */
export function createStores(pool: Pool) {
  return {
    users: createUserStore(pool),
    credits: createCreditStore(pool),
    creditedPayments: createCreditedPaymentStore(pool),
    jobs: createJobStore(pool),
    activityHistory: createActivityHistoryStore(pool),
    packages: createPackageStore(pool),
    payfastCheckouts: createPayFastCheckoutStore(pool),
    subscriptions: createSubscriptionStore(pool),
    webhookEvents: createWebhookEventStore(pool),
    entities: createEntityStore(pool),
    x402Payments: createX402PaymentStore(pool),
    market: createMarketStore(pool),
  };
}

export type Stores = ReturnType<typeof createStores>;
