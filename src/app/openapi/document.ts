import { MAX_BATCH_ITEMS } from '../../batches';
import type { FeatureModule } from '../../platform/features/feature-module';
import { RATE_LIMIT_HEADERS } from '../../platform/openapi/rate-limit-headers';
import type { Paths } from '../../platform/openapi/json-schema';
import type { OperationContext, OperationGroup } from '../../platform/openapi/operation-context';
import { SchemaComponents } from '../../platform/openapi/schema-components';
import { FEATURES } from '../features';
import { checkNamedErrorCodes } from './named-error-codes';
import { evidenceOperations } from './operations/evidence';
import { serviceOperations } from './operations/service';
import { sharedResponses } from './shared-responses';
import { checkSecuritySchemes, SECURITY_SCHEMES, withScopeRefusals } from './security';

export interface OpenApiOptions {
  /** The process's config: each feature's operations read their bounds from their own slice. */
  config: Readonly<Record<string, unknown>>;
  version?: string;
}

/** The docs page's sections, in the order it shows them; each operation names its section by its tag. */
const TAGS = [
  { name: 'Screening', description: 'KYT (transaction) and KYA (address) jobs: submit, poll, full response' },
  {
    name: 'Batches',
    description: `Up to ${MAX_BATCH_ITEMS.toLocaleString('en-US')} targets in one request: per-item jobs, progress, CSV results`,
  },
  { name: 'Credits', description: 'Balance, admin grants, who am I' },
  { name: 'API keys', description: 'Create (shown once, with scopes), list, revoke; admin: market-data tier' },
  { name: 'Teams', description: "The account's members and their roles (admin, analyst, approver)" },
  { name: 'Billing', description: 'Packages, PayFast checkout, PayPal subscriptions' },
  { name: 'Activity', description: 'Own activity history' },
  { name: 'Lists', description: 'Sanctions list versions, their provenance, and as-of lookups' },
  { name: 'Monitors', description: 'Addresses watched for risk changes, their alerts' },
  { name: 'Policies', description: "The account's risk policies: versioned, bounded by the risk model, a default" },
  {
    name: 'Custom labels',
    description: "The account's own lists: blocklisted and allowed addresses, its screenings only",
  },
  { name: 'Market data', description: 'Candles, capabilities and the unified query, per-account rate limits' },
  { name: 'Pay-per-use (x402)', description: 'Reports paid per request in USDC on Base, no account' },
  { name: 'Webhooks', description: 'Signed deliveries from the activity producer, Clerk, PayPal and PayFast' },
  { name: 'Service', description: 'Health and this document' },
];

/** The routes the composition root serves itself (health, this document, the evidence keys), after the features'. */
const SERVICE_OPERATIONS: readonly OperationGroup[] = [serviceOperations, evidenceOperations];

/**
 * The OpenAPI 3.1 document of the whole HTTP API, assembled from each feature's operations (its module's `openapi`,
 * in FEATURES order) and the service's own. Every request and response schema is converted from the zod schema the
 * route validates with or produces, so the document cannot drift from the code silently: the router-table and
 * response-validation tests fail when it does. Built, it is refused if it names an undeclared error code or security
 * scheme.
 */
export function buildOpenApiDocument(options: OpenApiOptions, features: readonly FeatureModule[] = FEATURES) {
  const components = new SchemaComponents();
  const context: OperationContext = { components, config: options.config };
  const responses = sharedResponses(components);
  const groups = [...features.flatMap((feature) => feature.openapi?.operations ?? []), ...SERVICE_OPERATIONS];
  const paths: Paths = {};
  for (const group of groups) {
    for (const [path, item] of Object.entries(group(context))) {
      for (const method of Object.keys(item)) {
        if (paths[path]?.[method as keyof typeof item])
          throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} is described twice`);
      }
      paths[path] = { ...paths[path], ...item };
    }
  }
  checkSecuritySchemes(paths);
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'chainscreen',
      version: options.version ?? '0.1.0',
      summary: 'Blockchain compliance screening: KYT, KYA, KYE, market data',
      description:
        'Explainable risk screening of addresses (KYA) and transactions (KYT), pay-per-use reports over x402, and ' +
        'market data. Errors come in two shapes (spec 7): flat `{success:false, error, code?}` and structured ' +
        "`{success:false, error:{code, message, details}}` (every INVALID_PARAMETER 400, market data's " +
        '404/429 and the job-submit 429). The activity webhook answers `{error}`.',
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: TAGS,
    paths: withScopeRefusals(paths),
    components: {
      schemas: components.build(),
      responses,
      headers: RATE_LIMIT_HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
  checkNamedErrorCodes(document);
  return document;
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
