import { z } from 'zod';
import { SHARED_ERROR_EXAMPLES } from '../../platform/openapi/error-examples';
import {
  errorResponse,
  flatError,
  flatErrorBody,
  parameterDetails,
  rateLimitDetails,
  structuredError,
  structuredErrorBody,
} from '../../platform/openapi/error-shapes';
import type { ResponseObject } from '../../platform/openapi/json-schema';
import { RETRY_AFTER_HEADER, rateLimitHeaderRefs } from '../../platform/openapi/rate-limit-headers';
import type { SchemaComponents } from '../../platform/openapi/schema-components';

/** `components.responses`: the answers many operations share, referenced by name. */
export function sharedResponses(components: SchemaComponents): Record<string, ResponseObject> {
  components.response('FlatError', flatErrorBody, {
    description: 'Flat error shape (spec 7): `{success:false, error, code?}`',
  });
  components.response('StructuredError', structuredErrorBody, {
    description: 'Structured error shape (spec 7): `{success:false, error:{code, message, details}}`',
  });
  components.response('ParameterDetails', parameterDetails);
  components.response('RateLimitDetails', rateLimitDetails);
  const invalidParameter = structuredError(['INVALID_PARAMETER'], parameterDetails);
  return {
    InvalidParameter: errorResponse(
      'A parameter is missing, malformed or out of range (structured, code INVALID_PARAMETER)',
      invalidParameter,
      SHARED_ERROR_EXAMPLES.invalidParameter,
    ),
    InvalidBody: errorResponse(
      'The body is not valid JSON, or a field is missing, malformed or out of range (structured ' +
        'INVALID_PARAMETER); a body the parser cannot read at all (e.g. ' +
        'an unknown Content-Encoding) is the flat BAD_REQUEST',
      z.union([invalidParameter, flatError(['BAD_REQUEST'], [], 'Malformed request')]),
      SHARED_ERROR_EXAMPLES.invalidParameter,
    ),
    AuthenticationRequired: errorResponse(
      'No valid API key or session token',
      flatError([], [], 'Authentication required'),
      SHARED_ERROR_EXAMPLES.authenticationRequired,
    ),
    MarketAuthenticationRequired: errorResponse(
      'No valid API key or session token; counted against the calling address at the free tier, ' +
        'so the RateLimit headers are present',
      flatError([], [], 'Authentication required'),
      SHARED_ERROR_EXAMPLES.authenticationRequired,
      rateLimitHeaderRefs(),
    ),
    AdminRequired: errorResponse(
      'The caller is not an admin',
      flatError(['INSUFFICIENT_PERMISSIONS'], [], 'Admin privileges required'),
      SHARED_ERROR_EXAMPLES.adminRequired,
    ),
    InsufficientScope: errorResponse(
      'The API key lacks the scope this operation names in its security (a session holds every scope)',
      flatError(['INSUFFICIENT_SCOPE']),
      SHARED_ERROR_EXAMPLES.insufficientScope,
    ),
    AdminRequiredOrInsufficientScope: errorResponse(
      'The caller is not an admin, or its API key lacks the scope this operation names in its security',
      z.union([
        flatError(['INSUFFICIENT_PERMISSIONS'], [], 'Admin privileges required'),
        flatError(['INSUFFICIENT_SCOPE']),
      ]),
      SHARED_ERROR_EXAMPLES.adminRequired,
    ),
    TeamRoleRequired: errorResponse(
      "The acting member's team role may not do this (docs/api.md#teams)",
      flatError(['INSUFFICIENT_TEAM_ROLE']),
      SHARED_ERROR_EXAMPLES.teamRoleRefusal,
    ),
    TeamRoleRequiredOrInsufficientScope: errorResponse(
      "The acting member's team role may not do this, or the API key lacks the scope this operation names in its " +
        'security',
      flatError(['INSUFFICIENT_TEAM_ROLE', 'INSUFFICIENT_SCOPE']),
      SHARED_ERROR_EXAMPLES.teamRoleRefusal,
    ),
    NotFound: errorResponse(
      "No such resource among the caller's own",
      flatError(['NOT_FOUND']),
      SHARED_ERROR_EXAMPLES.notFound,
    ),
    PayloadTooLarge: errorResponse(
      'The body is over the size limit',
      flatError(['PAYLOAD_TOO_LARGE'], [], 'Request body too large'),
    ),
    UnsupportedMediaType: errorResponse(
      'The body is in a character set or encoding the parser does not read',
      flatError(['BAD_REQUEST'], [], 'Malformed request'),
    ),
    RateLimited: errorResponse(
      "Over the account's per-minute limit, shared by all its keys and checked against the calling key's tier " +
        '(every market-data request counts, errors included)',
      structuredError(['RATE_LIMITED'], rateLimitDetails),
      SHARED_ERROR_EXAMPLES.rateLimited,
      { 'Retry-After': RETRY_AFTER_HEADER, ...rateLimitHeaderRefs() },
    ),
    JobSubmitLimited: errorResponse(
      "Over the account's job-submit limit (JOB_SUBMIT_LIMIT_PER_MINUTE a minute, one budget for all its keys and " +
        'sessions whatever their tier, shared by every route that starts paid work; every submit counts, refused ' +
        'ones included). Nothing was held, charged or created; retry after Retry-After seconds',
      structuredError(['RATE_LIMITED'], rateLimitDetails),
      SHARED_ERROR_EXAMPLES.jobSubmitLimited,
      { 'Retry-After': RETRY_AFTER_HEADER, ...rateLimitHeaderRefs() },
    ),
    SignatureInvalid: errorResponse(
      'The signature is missing, forged, or too old',
      flatError(['INVALID_SIGNATURE'], ['reason'], 'Unauthorized'),
      SHARED_ERROR_EXAMPLES.signatureInvalid,
    ),
    WebhookNotConfigured: errorResponse(
      'Not configured on this deployment (its secret is unset), or the event could not be handed to Temporal ' +
        'now: the provider retries',
      flatError(['WEBHOOK_NOT_CONFIGURED', 'SERVICE_UNAVAILABLE']),
      SHARED_ERROR_EXAMPLES.webhookNotConfigured,
    ),
  };
}
