import { z } from 'zod';
import type { FeatureOpenApi } from '../platform/features/feature-openapi';
import { accountSecurity } from '../identity';
import { errorResponse, ref, structuredError } from '../platform/openapi/error-shapes';
import { jsonBody, ok } from '../platform/openapi/json-content';
import { pathParameter, type Paths } from '../platform/openapi/json-schema';
import type { OperationContext } from '../platform/openapi/operation-context';
import { shippedRiskModel } from '../screening';
import { createCustomLabelBody } from './custom-labels-routes';
import { customLabelListResponse, customLabelResponse, deletedCustomLabelResponse } from './custom-labels-views';

const TAG = 'Custom labels';
const labelId = pathParameter('id', 'The label id (anything else is 404)', { type: 'string', format: 'uuid' });
const listParameters = [
  { name: 'limit', in: 'query' as const, required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } },
  { name: 'offset', in: 'query' as const, required: false, schema: { type: 'integer', minimum: 0, maximum: 1000000 } },
  {
    name: 'chain',
    in: 'query' as const,
    required: false,
    description: 'Only the labels of this chain (required with `address`)',
    schema: { type: 'string' },
  },
  {
    name: 'address',
    in: 'query' as const,
    required: false,
    description: 'Only the labels of this address (normalised as a screening request normalises it)',
    schema: { type: 'string', maxLength: 128 },
  },
];

const EXAMPLE_LABEL = {
  success: true,
  data: {
    id: '5b0e8f3e-6a53-4c1e-9d65-3f4a3c2b1a10',
    chain: 'ethereum',
    address: '0x2e6f4b8c1a0e5d7f9b3c2a1d0e9f8a7b6c5d4e3f',
    category: 'scam',
    name: 'Fake airdrop site',
    note: 'Reported by three customers, case 1432',
    created_at: '2026-11-26T10:00:00.000Z',
  },
};

const labelLimitReached = errorResponse(
  'The account already keeps MAX_CUSTOM_LABELS_PER_ACCOUNT labels (default 10000): delete one first. Nothing is stored',
  structuredError(['CUSTOM_LABEL_LIMIT_REACHED'], z.object({ limit: z.int().min(1) })),
  {
    success: false,
    error: {
      code: 'CUSTOM_LABEL_LIMIT_REACHED',
      message: 'An account keeps at most 10000 custom labels: delete one first',
      details: { limit: 10000 },
    },
  },
);

function customLabelsOperations({ components }: OperationContext): Paths {
  const label = components.response('CustomLabel', customLabelResponse);
  return {
    '/api/v1/custom-labels': {
      post: {
        operationId: 'createCustomLabel',
        tags: [TAG],
        summary: "Label an address on the account's own list (blocklist category or allow)",
        description:
          "A category of data/risk/risk_categories.json labels the address for this account's screenings only: " +
          'a hit of source `custom` scored as a reference-list label of that category (its severity in the risk ' +
          'model, high confidence), naming the label id and name. `allow` records an address the account has ' +
          'cleared: shown as a finding of source `custom`, it changes no score (it lowers nothing, sanctions above ' +
          "all). The address is validated and normalised as a screening request's. The same (chain, address, " +
          'category) again answers the existing label (200). An account keeps at most MAX_CUSTOM_LABELS_PER_ACCOUNT ' +
          'labels (409 CUSTOM_LABEL_LIMIT_REACHED).',
        requestBody: jsonBody(components.request('CreateCustomLabel', createCustomLabelBody(shippedRiskModel())), {
          chain: 'ethereum',
          address: EXAMPLE_LABEL.data.address,
          category: 'scam',
          name: EXAMPLE_LABEL.data.name,
        }),
        responses: {
          200: ok('The existing label of this chain, address and category', label),
          201: ok('The label, stored', label, EXAMPLE_LABEL),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          409: labelLimitReached,
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
        },
        security: accountSecurity('screening'),
      },
      get: {
        operationId: 'listCustomLabels',
        tags: [TAG],
        summary: 'Own custom labels, newest first',
        parameters: listParameters,
        responses: {
          200: ok('A page of labels', components.response('CustomLabelList', customLabelListResponse)),
          400: ref('InvalidParameter'),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/custom-labels/{id}': {
      delete: {
        operationId: 'deleteCustomLabel',
        tags: [TAG],
        summary: 'Delete an own label (later screenings no longer read it; stored answers keep what they said)',
        parameters: [labelId],
        responses: {
          200: ok('Deleted', components.response('CustomLabelDeleted', deletedCustomLabelResponse)),
          401: ref('AuthenticationRequired'),
          404: ref('NotFound'),
        },
        security: accountSecurity('screening'),
      },
    },
  };
}

/** The custom labels' operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const customLabelsOpenApi: FeatureOpenApi = {
  operations: [customLabelsOperations],
  tags: [{ name: TAG, description: "The account's own lists: blocklisted and allowed addresses, its screenings only" }],
};
