import type { WebhookProviderDeclaration } from '../platform/webhooks/webhook-provider';

/** Clerk's Svix-signed user and organization events: the route's path and the provider its events are kept under. */
export const CLERK_WEBHOOK = {
  provider: 'clerk',
  path: '/api/webhook/clerk',
} as const satisfies WebhookProviderDeclaration;

/** The webhooks identity serves (identityModule.webhookProviders). */
export const IDENTITY_WEBHOOK_PROVIDERS: readonly WebhookProviderDeclaration[] = [CLERK_WEBHOOK];
