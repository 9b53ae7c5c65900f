import type { Pool } from 'pg';
import { createHistoryStore } from '../history/history-store';
import { createCreditStore } from '../billing/credits-store';
import { createCreditedPaymentStore } from '../billing/credited-payments-store';
import { createJobStore } from '../screening/jobs-store';
import { createPackageStore } from '../billing/packages-store';
import { createPayFastCheckoutStore } from '../billing/payfast/payfast-checkouts-store';
import { createPayFastRefundRecordStore } from '../billing/payfast/payfast-refund-records-store';
import { createSubscriptionStore } from '../billing/subscriptions-store';
import { createWebhookEventStore } from '../platform/webhooks/webhook-events-store';
import { createEntityStore } from '../screening/reference-data/entities-store';
import { createX402PaymentStore } from '../x402/x402-payments-store';
import { createUserStore } from '../identity/users-store';
import { createTeamStore } from '../identity/team-store';
import { createMarketStore } from '../market/store/market-candles';
import { createBatchStore } from '../batches';
import { createPolicyStore } from '../policies';
import { createCustomLabelStore } from '../custom-labels';
import { createClusterStore } from '../entities';

/** Every Postgres-backed store over one pool. */
export function createStores(pool: Pool) {
  return {
    users: createUserStore(pool),
    /** Accounts' members and their roles (the team routes). */
    teams: createTeamStore(pool),
    credits: createCreditStore(pool),
    creditedPayments: createCreditedPaymentStore(pool),
    jobs: createJobStore(pool),
    history: createHistoryStore(pool),
    packages: createPackageStore(pool),
    payfastCheckouts: createPayFastCheckoutStore(pool),
    payfastRefundRecords: createPayFastRefundRecordStore(pool),
    subscriptions: createSubscriptionStore(pool),
    webhookEvents: createWebhookEventStore(pool),
    entities: createEntityStore(pool),
    x402Payments: createX402PaymentStore(pool),
    market: createMarketStore(pool),
    batches: createBatchStore(pool),
    /** Customer risk policies; also the PolicyResolver jobs, batches, rescores and monitors resolve with. */
    policies: createPolicyStore(pool),
    /** The account's own lists; also the CustomLabelLookup the worker's engine reads. */
    customLabels: createCustomLabelStore(pool),
    /** Wallet clusters: grown by screenings (the engine's ClusterPort), read by GET /api/v1/clusters. */
    clusters: createClusterStore(pool),
  };
}

export type Stores = ReturnType<typeof createStores>;
