import { RATE_LIMIT_HEADERS, sharedResponses } from './error-shapes';
import type { Paths } from './json-schema';
import { accountOperations } from './operations/account';
import { activityOperations } from './operations/activity';
import { batchesOperations } from './operations/batches';
import { billingOperations } from './operations/billing';
import type { OperationContext } from './operations/context';
import { evidenceOperations } from './operations/evidence';
import { listsOperations } from './operations/lists';
import { monitorsOperations } from './operations/monitors';
import { customLabelsOperations } from './operations/custom-labels';
import { teamsOperations } from './operations/teams';
import { clustersOperations } from './operations/clusters';
import { casesOperations } from './operations/cases';
import { policiesOperations } from './operations/policies';
import { marketOperations } from './operations/market';
import { screeningOperations } from './operations/screening';
import { serviceOperations } from './operations/service';
import { webhookOperations } from './operations/webhooks';
import { x402Operations } from './operations/x402';
import { SchemaComponents } from './schema-components';
import { SECURITY_SCHEMES, withScopeRefusals } from './security';

export interface OpenApiOptions {
  /** CRAWL_TIMEOUT_MAX_MS: the crawlTimeout maximum the screening validator enforces. */
  maxCrawlTimeoutMs: number;
  version?: string;
}

const TAGS = [
  { name: 'Screening', description: 'KYT (transaction) and KYA (address) jobs: submit, poll, full response' },
  { name: 'Batches', description: 'Up to 1,000 targets in one request: per-item jobs, progress, CSV results' },
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

/**
 * The OpenAPI 3.1 document of the whole HTTP API, assembled from each route group's operations. Every
 * request and response schema is converted from the zod schema the route validates with or produces
 * (see the operations files), so the document cannot drift from the code silently: the router-table
 * and response-validation tests fail when it does.
 */
export function buildOpenApiDocument(options: OpenApiOptions) {
  const components = new SchemaComponents();
  const context: OperationContext = { components, limits: { maxCrawlTimeoutMs: options.maxCrawlTimeoutMs } };
  const responses = sharedResponses(components);
  const groups = [
    screeningOperations,
    accountOperations,
    teamsOperations,
    billingOperations,
    activityOperations,
    marketOperations,
    x402Operations,
    webhookOperations,
    serviceOperations,
    evidenceOperations,
    listsOperations,
    monitorsOperations,
    policiesOperations,
    customLabelsOperations,
    clustersOperations,
    casesOperations,
    batchesOperations,
  ];
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
  return {
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
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
