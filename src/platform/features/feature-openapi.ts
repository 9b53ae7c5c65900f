import type { OperationGroup } from '../openapi/operation-context';

/**
 * What a feature adds to the one OpenAPI document (GET /api/v1/openapi.json): its operations with their examples,
 * each group built over the document's shared schema components. src/app/openapi/document.ts lists the groups of every
 * feature, in FEATURES order, and refuses a path and method two groups describe.
 */
export interface FeatureOpenApi {
  /** The feature's groups of operations, in the order their paths appear in the document. */
  readonly operations: readonly OperationGroup[];
  /** The docs page's sections the operations name (in the feature list's order); a tag is declared once. */
  readonly tags?: readonly OpenApiTag[];
  /** The security schemes the operations name (an API key, a provider's signature); a scheme is declared once. */
  readonly securitySchemes?: Readonly<Record<string, SecurityScheme>>;
}

/** One section of the docs page. */
export interface OpenApiTag {
  readonly name: string;
  readonly description: string;
}

/** An OpenAPI security scheme: a header (apiKey) or an HTTP bearer credential. */
export type SecurityScheme =
  | { readonly type: 'apiKey'; readonly in: 'header'; readonly name: string; readonly description: string }
  | { readonly type: 'http'; readonly scheme: 'bearer'; readonly bearerFormat: string; readonly description: string };
