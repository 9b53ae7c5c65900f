import { evidenceOperations } from './evidence-operations';
import type { FeatureOpenApi } from '../../platform/features/feature-openapi';
import { screeningOperations } from './screening-operations';

/** Screening's operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const screeningOpenApi: FeatureOpenApi = {
  operations: [screeningOperations, evidenceOperations],
  tags: [{ name: 'Screening', description: 'KYT (transaction) and KYA (address) jobs: submit, poll, full response' }],
};
