import { z } from 'zod';
import { livenessResponse, publicReadinessResponse } from '../../../platform/health/health-router';
import { errorResponse, flatError } from '../../../platform/openapi/error-shapes';
import { ok } from '../../../platform/openapi/json-content';
import type { Paths } from '../../../platform/openapi/json-schema';
import type { OperationContext } from '../../../platform/openapi/operation-context';
import { PUBLIC } from '../../../platform/openapi/security';

const TAG = 'Service';

export const healthResponse = z.object({ success: z.literal(true), data: z.object({ status: z.literal('ok') }) });
/** The document itself; its full schema is OpenAPI 3.1's own. */
export const openApiDocumentResponse = z.looseObject({
  openapi: z.string().regex(/^3\.1\.\d+$/),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** The service's own routes: health and this document. */
export function serviceOperations({ components }: OperationContext): Paths {
  const readiness = components.response('Readiness', publicReadinessResponse);
  return {
    '/healthz': {
      get: {
        operationId: 'liveness',
        tags: [TAG],
        summary: 'Liveness: the process answers (no dependency is asked)',
        responses: { 200: ok('Alive', components.response('Liveness', livenessResponse), { status: 'ok' }) },
        security: PUBLIC,
      },
    },
    '/readyz': {
      get: {
        operationId: 'readiness',
        tags: [TAG],
        summary:
          'Readiness: Postgres answers SELECT 1, the Temporal frontend answers, ' +
          'and a worker polled the task queue recently',
        description:
          'Each check is bounded by a 2 s timeout. This port says only ready or not; which check failed, its ' +
          'latency and error, and the Prometheus metrics are on the internal listener (INTERNAL_PORT, loopback ' +
          'by default), not here. See the README, Operations.',
        responses: {
          200: ok('Every dependency answered', readiness, { status: 'ready' }),
          503: ok('At least one dependency did not answer', readiness, { status: 'not_ready' }),
        },
        security: PUBLIC,
      },
    },
    '/health': {
      get: {
        operationId: 'health',
        tags: [TAG],
        summary: 'Liveness and database reachability (kept for existing monitors; prefer /healthz and /readyz)',
        responses: {
          200: ok('Up, and Postgres answers', components.response('Health', healthResponse), {
            success: true,
            data: { status: 'ok' },
          }),
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
