import path from 'node:path';
import { prepareIdentity } from './prepare';
import type { FeatureModule } from '../platform/features/feature-module';
import { IDENTITY_ERRORS } from './error-codes';
import { identityConfigSlice } from './config';
import { IDENTITY_WEBHOOK_PROVIDERS } from './webhook-providers';
import { identityOpenApi } from './openapi';
import { identityActivities } from './worker-activities';
import { identityAccountEvents, identityPorts, identityRoutes } from './routes';

/** What the identity feature declares to the composition root (src/platform/features/feature-module.ts). */
export const identityModule = {
  name: 'identity',
  workflows: path.join(__dirname, 'workflows.ts'),
  errors: IDENTITY_ERRORS,
  config: identityConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
  prepare: prepareIdentity,
  webhookProviders: IDENTITY_WEBHOOK_PROVIDERS,
  openapi: identityOpenApi,
  provides: identityPorts,
  routes: identityRoutes,
  accountEvents: identityAccountEvents,
  activities: identityActivities,
  socketEvents: [
    {
      name: 'credentials_changed',
      description: "A key's tier or scopes, a member's role or status changed: cached credentials are dropped",
      internal: true,
    },
    {
      name: 'credentials_revoked',
      description: 'An API key was revoked: its sockets close, caches drop it',
      internal: true,
    },
    {
      name: 'account_deactivated',
      description: 'The account was deleted: its sockets close, caches drop it',
      internal: true,
    },
  ],
} satisfies FeatureModule;
