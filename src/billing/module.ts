import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { BILLING_ERRORS } from './error-codes';
import { billingConfigSlice } from './config';
import { BILLING_WEBHOOK_PROVIDERS } from './webhook-providers';
import { billingOpenApi } from './openapi';

/** What the billing feature declares to the composition root (src/platform/features/feature-module.ts). */
export const billingModule = {
  name: 'billing',
  workflows: path.join(__dirname, 'workflows.ts'),
  errors: BILLING_ERRORS,
  config: billingConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
  webhookProviders: BILLING_WEBHOOK_PROVIDERS,
  openapi: billingOpenApi,
} satisfies FeatureModule;
