import type { Pool } from 'pg';
import { createHistoryStore } from '../../src/history/history-store';
import { createCreditStore } from '../../src/billing/credits-store';
import { createCreditedPaymentStore } from '../../src/billing/credited-payments-store';
import { createJobStore } from '../../src/screening/jobs-store';
import { createPackageStore } from '../../src/billing/packages-store';
import { createPayFastCheckoutStore } from '../../src/billing/payfast/payfast-checkouts-store';
import { createPayFastRefundRecordStore } from '../../src/billing/payfast/payfast-refund-records-store';
import { createSubscriptionStore } from '../../src/billing/subscriptions-store';
import { createWebhookEventStore } from '../../src/platform/webhooks/webhook-events-store';
import { createEntityStore } from '../../src/screening/reference-data/entities-store';
import { createX402PaymentStore } from '../../src/x402/x402-payments-store';
import { createUserStore } from '../../src/identity/users-store';
import { createTeamStore } from '../../src/identity/team-store';
import { createMarketStore } from '../../src/market/store/market-candles';
import { createBatchStore } from '../../src/batches';
import { createPolicyStore } from '../../src/policies';
import { createCustomLabelStore } from '../../src/custom-labels';
import { createClusterStore } from '../../src/entities';

/** Every Postgres-backed store over one pool: what tests arrange rows with and read outcomes from. */
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
