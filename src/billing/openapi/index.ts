import type { FeatureOpenApi } from '../../platform/features/feature-openapi';
import { billingOperations } from './billing-operations';
import { creditsOperations } from './credits-operations';
import { paymentWebhookOperations } from './payment-webhook-operations';

/** Billing's operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const billingOpenApi: FeatureOpenApi = {
  operations: [creditsOperations, billingOperations, paymentWebhookOperations],
};
