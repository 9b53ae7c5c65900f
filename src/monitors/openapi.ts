import { z } from 'zod';
import type { FeatureOpenApi } from '../platform/features/feature-openapi';
import { accountSecurity } from '../identity';
import { errorResponse, flatError, ref, structuredError } from '../platform/openapi/error-shapes';
import { jsonBody, ok } from '../platform/openapi/json-content';
import { pathParameter, type Paths } from '../platform/openapi/json-schema';
import type { OperationContext } from '../platform/openapi/operation-context';
import { rateLimitHeaders } from '../platform/openapi/rate-limit-headers';
import { creditRefusal, MINIMUM_CHARGE } from '../screening';
import { createMonitorBody } from './monitors-routes';
import {
  deletedMonitorResponse,
  monitorAlertListResponse,
  monitorListResponse,
  monitorResponse,
  rescreenResponse,
} from './monitors-views';

const TAG = 'Monitors';
const monitorId = pathParameter('id', 'The monitor id (anything else is 404)', { type: 'string', format: 'uuid' });
const paging = [
  { name: 'limit', in: 'query' as const, required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } },
  { name: 'offset', in: 'query' as const, required: false, schema: { type: 'integer', minimum: 0, maximum: 1000000 } },
];

/** Creating and re-screening start paid screenings: their answers carry the job-submit limit's headers (if on). */
const SUBMIT_LIMIT_HEADERS = rateLimitHeaders(false);

/** A create the account cannot pay the first screening of: the answers of a refused job submit. */
const cannotPayFirstScreening = errorResponse(
  "Not enough credits for the first screening's hold (what a job of this target may cost): nothing is stored and no " +
    'workflow starts; SUBSCRIPTION_PAYMENT_FAILED when the last PayPal payment failed; CREDITS_IN_DEBT while the ' +
    'account owes credits taken back by a refund or reversal',
  flatError(
    ['INSUFFICIENT_CREDITS', 'SUBSCRIPTION_PAYMENT_FAILED', 'CREDITS_IN_DEBT'],
    ['required', 'available', 'debt'],
  ),
  creditRefusal({ needed: MINIMUM_CHARGE, available: 0, debt: 0 }).body,
);
const monitorLimitReached = errorResponse(
  'The account already keeps MAX_ACTIVE_MONITORS_PER_ACCOUNT monitors (active or paused; default 100): delete one ' +
    'first. Nothing is stored or held',
  structuredError(['MONITOR_LIMIT_REACHED'], z.object({ limit: z.int().min(1) })),
  {
    success: false,
    error: {
      code: 'MONITOR_LIMIT_REACHED',
      message: 'An account keeps at most 100 monitors: delete one first',
      details: { limit: 100 },
    },
  },
);

function monitorsOperations({ components }: OperationContext): Paths {
  const monitor = components.response('Monitor', monitorResponse);
  return {
    '/api/v1/monitors': {
      post: {
        operationId: 'createMonitor',
        tags: [TAG],
        summary: 'Watch an address: alerts when its risk changes',
        description:
          'The address is screened at once (its baseline), again when a sanctions list version touches it or an ' +
          'address of its last crawl, every `every_hours` for new transfers, and on request. Each re-screen is a ' +
          'screening job of this account and costs what a job costs; an account that cannot pay pauses the monitor ' +
          '(an alert says so) until credits are granted. A change of the risk level (from `alert_level`), of the ' +
          "sanctioned flag or of the findings stores an alert and sends `risk_changed` to the owner's sockets. " +
          '`policy_id` names the policy every re-screen is scored under, at its version current then (absent: the ' +
          "account's default at each re-screen; a policy deleted later falls back to the default). One " +
          'monitor per account and target: creating it again answers the existing one (200). Creating counts ' +
          "against the account's job-submit limit (JOB_SUBMIT_LIMIT_PER_MINUTE), as a re-screen on request does. " +
          'A new monitor holds the price of its first screening at once (402 when the account cannot pay: nothing ' +
          'is stored and no workflow starts; deleting the monitor before that screening ran releases the hold), and ' +
          'an account keeps at most MAX_ACTIVE_MONITORS_PER_ACCOUNT monitors (409 MONITOR_LIMIT_REACHED).',
        requestBody: jsonBody(components.request('CreateMonitor', createMonitorBody)),
        responses: {
          200: ok('The existing monitor of this target', monitor, undefined, SUBMIT_LIMIT_HEADERS),
          201: ok('The monitor, started', monitor, undefined, SUBMIT_LIMIT_HEADERS),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          402: cannotPayFirstScreening,
          409: monitorLimitReached,
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
          404: errorResponse(
            'policy_id names no policy of this account (never created, or deleted)',
            flatError(['POLICY_NOT_FOUND']),
          ),
          429: ref('JobSubmitLimited'),
          503: errorResponse('Temporal could not be reached; retry', flatError(['SERVICE_UNAVAILABLE'])),
        },
        security: accountSecurity('screening'),
      },
      get: {
        operationId: 'listMonitors',
        tags: [TAG],
        summary: 'Own monitors with their last result, newest first',
        parameters: paging,
        responses: {
          200: ok('A page of monitors', components.response('MonitorList', monitorListResponse)),
          400: ref('InvalidParameter'),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/monitors/{id}': {
      get: {
        operationId: 'getMonitor',
        tags: [TAG],
        summary: 'One own monitor',
        parameters: [monitorId],
        responses: { 200: ok('The monitor', monitor), 401: ref('AuthenticationRequired'), 404: ref('NotFound') },
        security: accountSecurity('read'),
      },
      delete: {
        operationId: 'deleteMonitor',
        tags: [TAG],
        summary: 'Stop watching (its alerts stay readable only through history)',
        parameters: [monitorId],
        responses: {
          200: ok('Deleted: its workflow stops', components.response('MonitorDeleted', deletedMonitorResponse)),
          401: ref('AuthenticationRequired'),
          404: ref('NotFound'),
        },
        security: accountSecurity('screening'),
      },
    },
    '/api/v1/monitors/{id}/alerts': {
      get: {
        operationId: 'listMonitorAlerts',
        tags: [TAG],
        summary: "A monitor's alerts, newest first",
        parameters: [monitorId, ...paging],
        responses: {
          200: ok('A page of alerts', components.response('MonitorAlertList', monitorAlertListResponse)),
          400: ref('InvalidParameter'),
          401: ref('AuthenticationRequired'),
          404: ref('NotFound'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/monitors/{id}/rescreen': {
      post: {
        operationId: 'rescreenMonitor',
        tags: [TAG],
        summary: 'Re-screen now (costs what a job costs)',
        parameters: [monitorId],
        responses: {
          202: ok(
            'Asked; the result arrives as an alert if the risk changed',
            components.response('MonitorRescreen', rescreenResponse),
            undefined,
            SUBMIT_LIMIT_HEADERS,
          ),
          401: ref('AuthenticationRequired'),
          404: ref('NotFound'),
          429: ref('JobSubmitLimited'),
          503: errorResponse('Temporal could not be reached; retry', flatError(['SERVICE_UNAVAILABLE'])),
        },
        security: accountSecurity('screening'),
      },
    },
  };
}

/** The monitors' operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const monitorsOpenApi: FeatureOpenApi = {
  operations: [monitorsOperations],
  tags: [{ name: TAG, description: 'Addresses watched for risk changes, their alerts' }],
};
