import type { FeatureOpenApi } from '../../platform/features/feature-openapi';
import { marketOperations } from './market-operations';

/** Market data's operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const marketOpenApi: FeatureOpenApi = {
  operations: [marketOperations],
  tags: [{ name: 'Market data', description: 'Candles, capabilities and the unified query, per-account rate limits' }],
};
