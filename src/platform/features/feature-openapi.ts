import type { OperationGroup } from '../openapi/operation-context';

/**
 * What a feature adds to the one OpenAPI document (GET /api/v1/openapi.json): its operations with their examples,
 * each group built over the document's shared schema components. src/app/openapi/document.ts lists the groups of every
 * feature, in FEATURES order, and refuses a path and method two groups describe.
 */
export interface FeatureOpenApi {
  /** The feature's groups of operations, in the order their paths appear in the document. */
  readonly operations: readonly OperationGroup[];
}
