import { z } from 'zod';
import { livenessResponse, readinessResponse } from '../../../platform/health/health-router';
import { errorResponse, flatError } from '../error-shapes';
import { EXAMPLES } from '../examples';
import type { Paths } from '../json-schema';
import { PUBLIC } from '../security';
import { ok, type OperationContext } from './context';

const TAG = 'Service';

export const healthResponse = z.object({ success: z.literal(true), data: z.object({ status: z.literal('ok') }) });
/** The document itself; its full schema is OpenAPI 3.1's own. */
export const openApiDocumentResponse = z.looseObject({
  openapi: z.string().regex(/^3\.1\.\d+$/),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

const READY_EXAMPLE = {
  status: 'ok',
  checks: {
    postgres: { ok: true, latencyMs: 1 },
    temporal: { ok: true, latencyMs: 2 },
    worker: { ok: true, latencyMs: 3, detail: '1 poller(s) on task queue chainscreen' },
  },
};
const NOT_READY_EXAMPLE = {
  status: 'unavailable',
  checks: {
    postgres: { ok: true, latencyMs: 1 },
    temporal: { ok: true, latencyMs: 2 },
    worker: { ok: false, latencyMs: 3, error: 'no worker polled task queue chainscreen in the last 90 s' },
  },
};

export function serviceOperations({ components }: OperationContext): Paths {
  const readiness = components.response('Readiness', readinessResponse);
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
          'Each check is bounded by a 2 s timeout; the body names every check with its latency ' +
          'and, when it failed, why.',
        responses: {
          200: ok('Every dependency answered', readiness, READY_EXAMPLE),
          503: ok('At least one dependency did not answer', readiness, NOT_READY_EXAMPLE),
        },
        security: PUBLIC,
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: [TAG],
        summary: 'Prometheus metrics of this api process (text exposition format 0.0.4)',
        description:
          'HTTP durations per route template, jobs submitted, webhook deliveries, admin credit grants, ' +
          'rate-limit refusals and the Node.js process metrics. The worker serves its own on WORKER_HTTP_PORT. ' +
          'See the README, Operations.',
        responses: {
          200: {
            description: 'Prometheus text format',
            content: { 'text/plain': { schema: { type: 'string', pattern: '# HELP chainscreen_' } } },
          },
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
