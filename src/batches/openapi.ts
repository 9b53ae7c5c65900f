import { z } from 'zod';
import type { ScreeningConfig } from '../screening';
import type { FeatureOpenApi } from '../platform/features/feature-openapi';
import { accountSecurity } from '../identity';
import { errorResponse, flatError, ref, structuredError } from '../platform/openapi/error-shapes';
import { jsonBody, ok } from '../platform/openapi/json-content';
import { type HeaderObject, type ParameterObject, pathParameter, type Paths } from '../platform/openapi/json-schema';
import type { OperationContext } from '../platform/openapi/operation-context';
import { rateLimitHeaders } from '../platform/openapi/rate-limit-headers';
import { CSV_COLUMNS } from './batch-csv';
import { batchRequestSchema, MAX_BATCH_ITEMS } from './batch-request';
import { batchListResponse, batchResponse, batchWithItemsResponse } from './batch-views';

const TAG = 'Batches';
const batchId = pathParameter('batchId', 'The batch_id the submit answered (anything else is 404)', {
  type: 'string',
  format: 'uuid',
});
const paging = (maxLimit: number, defaultLimit: number): ParameterObject[] => [
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: `Page size (default ${defaultLimit})`,
    schema: { type: 'integer', minimum: 1, maximum: maxLimit },
  },
  { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, maximum: 1_000_000 } },
];
const idempotencyKey: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key (per account) with the same body answers the batch it created (202, ' +
    '`Idempotent-Replayed: true`); with another body, 409 IDEMPOTENCY_KEY_REUSED',
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
};
const SUBMITTED_HEADERS: Record<string, HeaderObject> = {
  Location: {
    description: 'Where to read the batch: /api/v1/kyt/batch/{batchId}',
    required: true,
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when the Idempotency-Key named a batch an earlier request created',
    required: false,
    schema: { type: 'string', const: 'true' },
  },
  ...rateLimitHeaders(false),
};

function batchesOperations({ components, config }: OperationContext): Paths {
  const limits = { maxCrawlTimeoutMs: (config as ScreeningConfig).CRAWL_TIMEOUT_MAX_MS };
  const batch = components.response('Batch', batchResponse);
  return {
    '/api/v1/kyt/batch': {
      post: {
        operationId: 'submitScreeningBatch',
        tags: [TAG],
        summary: `Screen up to ${MAX_BATCH_ITEMS} targets in one request`,
        description:
          'Every item is validated first, as POST /api/v1/kyt/job validates one: an invalid item is listed in ' +
          '`invalid_items` with the field at fault and costs nothing. The policy is resolved once. Then, in one ' +
          'transaction, each valid item holds what a single job would hold, in item order: an item the balance ' +
          'cannot pay for is `refused` (INSUFFICIENT_CREDITS) and holds nothing. Accepted items become screening ' +
          'jobs of their own (`request_id`, charged once each when they complete), run by the workflow ' +
          'batch:<batch_id> at most BATCH_CONCURRENCY at a time. Progress: GET /api/v1/kyt/batch/{batchId} and the ' +
          "`batch_progress` socket event. The request counts once against the account's job-submit limit. " +
          'A batch none of whose items is valid is refused (400, the first item at fault), and one none of whose ' +
          'valid items the balance can hold answers the 402 of a single job: neither stores, holds or starts ' +
          'anything. The body (up to 1 MB) is read only after the key and its scope are checked.',
        parameters: [idempotencyKey],
        requestBody: jsonBody(components.request('BatchRequest', batchRequestSchema(limits)), {
          items: [
            { chain: 'ethereum', address: '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c', reference_id: 'case-1' },
            { chain: 'bitcoin', address: '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h', reference_id: 'case-2' },
          ],
        }),
        responses: {
          202: ok(
            'Accepted (or, with a replayed Idempotency-Key, the batch it created)',
            batch,
            undefined,
            SUBMITTED_HEADERS,
          ),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          402: errorResponse(
            'No item could be held (not even the first): nothing was stored, held or started. INSUFFICIENT_CREDITS; ' +
              'SUBSCRIPTION_PAYMENT_FAILED when the last PayPal payment failed; CREDITS_IN_DEBT while the account ' +
              'owes credits taken back by a refund or reversal',
            flatError(
              ['INSUFFICIENT_CREDITS', 'SUBSCRIPTION_PAYMENT_FAILED', 'CREDITS_IN_DEBT'],
              ['required', 'available', 'debt'],
            ),
          ),
          404: errorResponse('policy_id names no policy of this account', flatError(['POLICY_NOT_FOUND'])),
          409: errorResponse(
            'The Idempotency-Key was already used by this account for a batch with another body',
            structuredError(
              ['IDEMPOTENCY_KEY_REUSED'],
              z.object({ parameter: z.literal('Idempotency-Key'), batch_id: z.uuid() }),
            ),
          ),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
          429: ref('JobSubmitLimited'),
        },
        security: accountSecurity('screening'),
      },
    },
    '/api/v1/kyt/batches': {
      get: {
        operationId: 'listScreeningBatches',
        tags: [TAG],
        summary: 'Own batches with their counts, newest first',
        parameters: paging(100, 20),
        responses: {
          200: ok('A page of batches', components.response('BatchList', batchListResponse)),
          400: ref('InvalidParameter'),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/kyt/batch/{batchId}': {
      get: {
        operationId: 'getScreeningBatch',
        tags: [TAG],
        summary: 'A batch: counts by status and a page of its items with their results',
        description:
          "Items in request order; each completed item carries the policy's score and the standard model's score " +
          "of its job's answer (the full answer: GET /api/v1/kyt/job/{request_id}).",
        parameters: [
          batchId,
          ...paging(MAX_BATCH_ITEMS, 100),
          {
            name: 'status',
            in: 'query',
            required: false,
            description: 'Only the items of this status',
            schema: { type: 'string', enum: ['invalid', 'refused', 'queued', 'completed', 'failed'] },
          },
        ],
        responses: {
          200: ok('The batch and a page of its items', components.response('BatchWithItems', batchWithItemsResponse)),
          400: ref('InvalidParameter'),
          401: ref('AuthenticationRequired'),
          404: ref('NotFound'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/kyt/batch/{batchId}/results.csv': {
      get: {
        operationId: 'downloadScreeningBatchResults',
        tags: [TAG],
        summary: 'Every item of a batch as CSV',
        description:
          `RFC 4180 (CRLF, quoted where needed), a header row: ${CSV_COLUMNS.join(',')}. A cell starting with ` +
          "= + - @ (a spreadsheet formula) is prefixed with '.",
        parameters: [batchId],
        responses: {
          200: {
            description: 'The CSV file',
            headers: {
              'Content-Disposition': {
                description: 'attachment; filename="batch-<batch_id>.csv"',
                required: true,
                schema: { type: 'string' },
              },
            },
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          401: ref('AuthenticationRequired'),
          404: ref('NotFound'),
        },
        security: accountSecurity('read'),
      },
    },
  };
}

/** The batches' operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const batchesOpenApi: FeatureOpenApi = {
  operations: [batchesOperations],
  tags: [
    {
      name: TAG,
      description:
        `Up to ${MAX_BATCH_ITEMS.toLocaleString('en-US')} targets in one request: ` +
        'per-item jobs, progress, CSV results',
    },
  ],
};
