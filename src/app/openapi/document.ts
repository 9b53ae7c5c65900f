import type { FeatureModule } from '../../platform/features/feature-module';
import type { OpenApiTag } from '../../platform/features/feature-openapi';
import { RATE_LIMIT_HEADERS } from '../../platform/openapi/rate-limit-headers';
import type { Paths } from '../../platform/openapi/json-schema';
import type { OperationContext, OperationGroup } from '../../platform/openapi/operation-context';
import { SchemaComponents } from '../../platform/openapi/schema-components';
import { FEATURES } from '../features';
import { checkNamedErrorCodes } from './named-error-codes';
import { collectOnce } from '../collect-once';
import { serviceOperations } from './operations/service';
import { sharedResponses } from './shared-responses';
import { checkSecurityAndTags, withScopeRefusals } from './security';

export interface OpenApiOptions {
  /** The process's config: each feature's operations read their bounds from their own slice. */
  config: Readonly<Record<string, unknown>>;
  version?: string;
}

/** The routes the composition root serves itself (health, this document), after the features'. */
const SERVICE_OPERATIONS: readonly OperationGroup[] = [serviceOperations];

/**
 * The docs page's sections, in the order it shows them: every feature's (in the feature list's order), then the
 * webhooks of every provider, then the service's own. Each operation names its section by its tag.
 */
function documentTags(features: readonly FeatureModule[]): OpenApiTag[] {
  const providers = features.flatMap((feature) => feature.webhookProviders ?? []).map((hook) => hook.provider);
  const declared = collectOnce(
    features,
    (feature) => Object.fromEntries((feature.openapi?.tags ?? []).map((tag) => [tag.name, tag])),
    'OpenAPI tag',
  );
  return [
    ...Object.values(declared),
    { name: 'Webhooks', description: `Signed deliveries from the providers (${providers.join(', ')})` },
    { name: 'Service', description: 'Health, this document, and the keys that verify signed answers' },
  ];
}

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
  const tags = documentTags(features);
  const securitySchemes = collectOnce(features, (feature) => feature.openapi?.securitySchemes, 'security scheme');
  checkSecurityAndTags(paths, securitySchemes, tags);
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
    tags,
    paths: withScopeRefusals(paths),
    components: {
      schemas: components.build(),
      responses,
      headers: RATE_LIMIT_HEADERS,
      securitySchemes,
    },
  };
  checkNamedErrorCodes(document);
  return document;
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
