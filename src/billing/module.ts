import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { BILLING_ERRORS } from './error-codes';
import { billingConfigSlice } from './config';
import { BILLING_WEBHOOK_PROVIDERS } from './webhook-providers';
import { billingOpenApi } from './openapi';
import { releaseUserHolds } from './release-user-holds';
import { billingActivities } from './worker-activities';
import { billingRoutes } from './routes';

/** What the billing feature declares to the composition root (src/platform/features/feature-module.ts). */
export const billingModule = {
  name: 'billing',
  workflows: path.join(__dirname, 'workflows.ts'),
  errors: BILLING_ERRORS,
  config: billingConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
  webhookProviders: BILLING_WEBHOOK_PROVIDERS,
  openapi: billingOpenApi,
  routes: billingRoutes,
  // An account's deactivation gives back its holds (src/identity/ports.ts).
  provides: () => ({ accountHolds: { releaseAll: releaseUserHolds } }),
  activities: billingActivities,
  metrics: [
    'chainscreen_credits_consumed_total',
    'chainscreen_credits_granted_total',
    'chainscreen_credits_revoked_total',
    'chainscreen_paypal_deliveries_refused_total',
  ],
  socketEvents: [
    {
      name: 'credits_granted',
      description:
        'Credits were granted: `{transactionId, amount, balance, source, eventId, grantedAt}`, and ' +
        '`debtRepaid` when the grant repaid debt',
    },
    {
      name: 'credit_balance_updated',
      description:
        'The balance moved (a grant, a charge, a take-back): `{balance, delta, reason}`, and `debtAdded` for a ' +
        'take-back',
    },
  ],
} satisfies FeatureModule;
