import type { FeatureOpenApi } from '../platform/features/feature-openapi';
import { accountSecurity } from '../identity';
import { ref } from '../platform/openapi/error-shapes';
import { ok } from '../platform/openapi/json-content';
import { pathParameter, queryParameters, type Paths } from '../platform/openapi/json-schema';
import type { OperationContext } from '../platform/openapi/operation-context';
import { sanctionsLookupQuery } from './lists-routes';
import { listsResponse, sanctionsLookupResponse } from './lists-views';

const TAG = 'Lists';

function listsOperations({ components }: OperationContext): Paths {
  return {
    '/api/v1/lists': {
      get: {
        operationId: 'listLists',
        tags: [TAG],
        summary: 'The lists answers are screened against: versions, age, counts and the last diff',
        description:
          'The active OFAC SDN version (its issue date, sha256, load time and age), whether it is stale (older than ' +
          'OFAC_MAX_AGE_DAYS while the refresh is on), the refresh schedule, what the last version added, removed ' +
          'and changed, the version history, and the other datasets (stablecoin freezes, address labels).',
        responses: {
          200: ok('The lists', components.response('Lists', listsResponse)),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/lists/ofac/addresses/{address}': {
      get: {
        operationId: 'lookupSanctionedAddress',
        tags: [TAG],
        summary: 'Was this address on the OFAC SDN list on a date',
        description:
          'Every entry the address ever had across the loaded versions, with when it was listed and delisted; ' +
          '`listed` answers for `as_of` (default today). EVM and bech32 addresses are matched lower-cased.',
        parameters: [
          pathParameter('address', 'The address, as the chain writes it', {
            type: 'string',
            pattern: '^[A-Za-z0-9:_-]{8,128}$',
          }),
          ...queryParameters(sanctionsLookupQuery),
        ],
        responses: {
          200: ok('The address on the list', components.response('SanctionsLookup', sanctionsLookupResponse)),
          400: ref('InvalidParameter'),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
  };
}

/** The sanctions lists' operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const listsOpenApi: FeatureOpenApi = {
  operations: [listsOperations],
  tags: [{ name: TAG, description: 'Sanctions list versions, their provenance, and as-of lookups' }],
};
