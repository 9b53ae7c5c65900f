import type { FeatureOpenApi } from '../platform/features/feature-openapi';
import { accountSecurity } from '../identity';
import { errorResponse, flatError, rateLimitDetails, ref, structuredError } from '../platform/openapi/error-shapes';
import { jsonBody, ok } from '../platform/openapi/json-content';
import { pathParameter, type Paths } from '../platform/openapi/json-schema';
import type { OperationContext } from '../platform/openapi/operation-context';
import { RETRY_AFTER_HEADER, rateLimitHeaderRefs, rateLimitHeaders } from '../platform/openapi/rate-limit-headers';
import { policyBodySchema, shippedRiskModel } from '../screening';
import { setDefaultPolicyBody } from './policies-routes';
import { defaultPolicyResponse, policyBoundsResponse, policyListResponse, policyResponse } from './policies-views';
import { POLICY_ID_EXPECTED } from './policy-id';

const TAG = 'Policies';
/** Every edit (PUT, DELETE) spends the account's policy-edit budget: its answers carry the limit's headers (if on). */
const EDIT_LIMIT_HEADERS = rateLimitHeaders(false);
const editLimited = errorResponse(
  "Over the account's policy-edit limit (POLICY_EDIT_LIMIT_PER_MINUTE a minute, default 30, one budget for all its " +
    'keys and sessions; every PUT and DELETE of a policy or of the default counts, refused ones included). Nothing ' +
    'was written; retry after Retry-After seconds',
  structuredError(['RATE_LIMITED'], rateLimitDetails),
  {
    success: false,
    error: {
      code: 'RATE_LIMITED',
      message:
        'Policy edit limit of 30 edits per 60 s exceeded for this account (all its API keys share it); retry in 41 s',
      details: { tier: 'free', limit: 30, windowSeconds: 60, retryAfterSeconds: 41 },
    },
  },
  {
    'Retry-After': RETRY_AFTER_HEADER,
    ...rateLimitHeaderRefs(),
  },
);
const policyNotFound = (what: string) => errorResponse(what, flatError(['POLICY_NOT_FOUND']));
const policyId = (description: string) =>
  pathParameter('id', description, { type: 'string', minLength: 1, maxLength: 64 });

function policiesOperations({ components }: OperationContext): Paths {
  const policy = components.response('Policy', policyResponse);
  const defaultPolicy = components.response('DefaultPolicy', defaultPolicyResponse);
  const body = components.request('PolicyBody', policyBodySchema(shippedRiskModel()), {
    description:
      "What the policy changes of the standard model, within risk-model.json's policy_bounds " +
      '(GET /api/v1/policies/bounds); anything absent keeps the standard value. A PUT replaces the whole policy.',
  });
  return {
    '/api/v1/policies': {
      get: {
        operationId: 'listPolicies',
        tags: [TAG],
        summary: "The account's policies at their current versions, and its default",
        responses: {
          200: ok('Every live policy, by id', components.response('PolicyList', policyListResponse)),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/policies/bounds': {
      get: {
        operationId: 'getPolicyBounds',
        tags: [TAG],
        summary: 'What a policy may set, and the standard values it starts from',
        responses: {
          200: ok('The bounds and the standard values', components.response('PolicyBounds', policyBoundsResponse)),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/policies/default': {
      get: {
        operationId: 'getDefaultPolicy',
        tags: [TAG],
        summary: 'The policy jobs, batches and monitors use when they name none',
        responses: {
          200: ok('The default policy; policy_id null: the standard model', defaultPolicy),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
      put: {
        operationId: 'setDefaultPolicy',
        tags: [TAG],
        summary: "Set the account's default policy",
        description:
          "A job, batch or monitor that names no policy_id is scored under the default's version current at the " +
          "time. null or 'standard' clears it.",
        requestBody: jsonBody(components.request('SetDefaultPolicy', setDefaultPolicyBody), {
          policy_id: 'strict-gambling',
        }),
        responses: {
          200: ok('The default now', defaultPolicy, undefined, EDIT_LIMIT_HEADERS),
          400: ref('InvalidBody'),
          429: editLimited,
          401: ref('AuthenticationRequired'),
          404: policyNotFound('policy_id names no policy of this account'),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
        },
        security: accountSecurity('screening'),
      },
      delete: {
        operationId: 'clearDefaultPolicy',
        tags: [TAG],
        summary: 'Clear the default: jobs that name no policy use the standard model',
        responses: {
          204: { description: 'Cleared (or there was none)', headers: EDIT_LIMIT_HEADERS },
          401: ref('AuthenticationRequired'),
          429: editLimited,
        },
        security: accountSecurity('screening'),
      },
    },
    '/api/v1/policies/{id}': {
      put: {
        operationId: 'putPolicy',
        tags: [TAG],
        summary: 'Create a policy, or edit it (a new version)',
        description:
          `The id: ${POLICY_ID_EXPECTED}; not 'standard', 'default' or 'bounds' (400). An edit makes a new version ` +
          '(200); stored answers keep the version that scored them. A body identical to the current version makes ' +
          'none (200, the same version), so a retried PUT is harmless. A policy deleted and created again continues ' +
          'its version numbers. Writing a version prunes the superseded versions no job, rescore or batch names ' +
          '(GET ?version=N of a pruned one is 404). Edits count against POLICY_EDIT_LIMIT_PER_MINUTE (429). ' +
          '`default: true` also makes it the account default. Every 400 names the field, e.g. ' +
          '`categories.gambling.severity`, `levels.HIGH`, `indirect.min_share`.',
        parameters: [policyId('The policy id to create or edit')],
        requestBody: jsonBody(body, {
          name: 'Strict on gambling',
          severe_categories: ['gambling'],
          categories: { mixer: { weight: 1.5 } },
          indirect: { min_share: 0.05 },
          levels: { MEDIUM: 30, HIGH: 60 },
        }),
        responses: {
          200: ok(
            'Edited (a new version), or identical to the current version (unchanged)',
            policy,
            undefined,
            EDIT_LIMIT_HEADERS,
          ),
          201: ok(
            'Created: version 1, or the next number of a policy deleted before',
            policy,
            undefined,
            EDIT_LIMIT_HEADERS,
          ),
          400: ref('InvalidBody'),
          429: editLimited,
          401: ref('AuthenticationRequired'),
          409: errorResponse(
            'A new policy beyond the 100 live policies an account keeps (delete one first)',
            flatError(['POLICY_LIMIT_REACHED']),
          ),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
        },
        security: accountSecurity('screening'),
      },
      get: {
        operationId: 'getPolicy',
        tags: [TAG],
        summary: 'A policy at its current version, or at ?version=N',
        parameters: [
          policyId('The policy id (any other text is 404)'),
          {
            name: 'version',
            in: 'query',
            required: false,
            description: 'An older version (e.g. the one a stored answer names)',
            schema: { type: 'integer', minimum: 1, maximum: 2147483647 },
          },
        ],
        responses: {
          200: ok('The policy', policy),
          400: ref('InvalidParameter'),
          401: ref('AuthenticationRequired'),
          404: policyNotFound('No such policy (or version) in this account, or it was deleted'),
        },
        security: accountSecurity('read'),
      },
      delete: {
        operationId: 'deletePolicy',
        tags: [TAG],
        summary: 'Delete a policy (and the default, if it was)',
        description:
          'New jobs can no longer name it; stored answers keep their copy of the version that scored them. A ' +
          "monitor naming it is scored under the account's default from then on.",
        parameters: [policyId('The policy id (any other text is 404)')],
        responses: {
          204: { description: 'Deleted', headers: EDIT_LIMIT_HEADERS },
          401: ref('AuthenticationRequired'),
          404: policyNotFound('No such policy in this account (or already deleted)'),
          429: editLimited,
        },
        security: accountSecurity('screening'),
      },
    },
  };
}

/** The risk policies' operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const policiesOpenApi: FeatureOpenApi = {
  operations: [policiesOperations],
  tags: [{ name: TAG, description: "The account's risk policies: versioned, bounded by the risk model, a default" }],
};
