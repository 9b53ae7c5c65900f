import { z } from 'zod';
import { errorResponse, flatError } from '../error-shapes';
import { EXAMPLES } from '../examples';
import type { Paths } from '../json-schema';
import { PUBLIC } from '../security';
import { ok, type OperationContext } from './context';

const TAG = 'Service';

export const healthResponse = z.object({ success: z.literal(true), data: z.object({ status: z.literal('ok') }) });
/** The document itself; its full schema is OpenAPI 3.1's own. */
export const openApiDocumentResponse = z.looseObject({ openapi: z.string().regex(/^3\.1\.\d+$/), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) });

export function serviceOperations({ components }: OperationContext): Paths {
  return {
    '/health': {
      get: {
        operationId: 'health',
        tags: [TAG],
        summary: 'Liveness and database reachability',
        responses: {
          200: ok('Up, and Postgres answers', components.response('Health', healthResponse), EXAMPLES.health),
          500: errorResponse('Postgres does not answer', flatError(['INTERNAL'], [], 'Internal error')),
        },
        security: PUBLIC,
      },
    },
    '/api/v1/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: [TAG],
        summary: 'This document (OpenAPI 3.1)',
        description: 'Generated at start from the zod schemas the routes validate with. Rendered at /docs.',
        responses: { 200: ok('The OpenAPI document', components.response('OpenApiDocument', openApiDocumentResponse)) },
        security: PUBLIC,
      },
    },
  };
}
