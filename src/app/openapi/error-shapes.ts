import { z } from 'zod';
import { activityWebhookErrorBody } from '../../history/activity-webhook-route';
import { declared } from '../declared-error-codes';
import { ERROR_EXAMPLES } from './examples';
import type { HeaderObject, JsonSchema, ResponseObject } from './json-schema';
import { jsonSchemaOf } from './json-schema';
import type { SchemaComponents } from './schema-components';

/**
 * The contract's two error shapes (spec 7, src/platform/http/errors.ts) and the responses built from them.
 * Flat: `{success:false, error:<message>, code?}` (plus a few named extras); structured:
 * `{success:false, error:{code, message, details}}` (every INVALID_PARAMETER 400, market 404/429).
 */

/** Extras some flat errors carry; no other property appears. */
const flatExtras = {
  required: z.int().min(0).optional().meta({ description: '402: credits the request needs' }),
  available: z.int().optional().meta({ description: '402: credits available' }),
  debt: z.int().min(0).optional().meta({ description: '402 CREDITS_IN_DEBT: credits owed after a refund or reversal' }),
  request_id: z
    .uuid()
    .optional()
    .meta({ description: 'The job concerned (503 when it could not be started, failures of the synchronous analyze)' }),
  reason: z.string().optional().meta({
    description:
      '401 INVALID_SIGNATURE: why the signature was refused; 402 PAYMENT_REJECTED / SETTLEMENT_FAILED: the x402 reason',
  }),
};

export const flatErrorBody = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.string().optional(),
  ...flatExtras,
});

export const parameterDetails = z.object({
  parameter: z.string().meta({ description: 'The parameter at fault, e.g. "chain", "filters.symbol", "address|txid"' }),
  expected: z.string().meta({ description: 'What would have been accepted' }),
});
export const rateLimitDetails = z.object({
  tier: z.enum(['free', 'pro', 'enterprise']),
  limit: z.int().min(1),
  windowSeconds: z.int().min(1),
  retryAfterSeconds: z.int().min(1),
});
export const structuredErrorBody = z.object({
  success: z.literal(false),
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()) }),
});

/** A flat error limited to `codes` (none = the code is absent; each one declared in an error table) and the extras named. */
export function flatError(
  codes: readonly string[],
  extras: readonly (keyof typeof flatExtras)[] = [],
  message?: string,
) {
  const picked = Object.fromEntries(extras.map((k) => [k, flatExtras[k]]));
  return z.object({
    success: z.literal(false),
    error: message === undefined ? z.string() : z.literal(message),
    ...(codes.length > 0 ? { code: z.enum(declared(codes) as [string, ...string[]]) } : {}),
    ...picked,
  });
}

/** A structured error limited to `codes` (each one declared in an error table), with its details' schema. */
export function structuredError(codes: readonly string[], details: z.ZodType) {
  return z.object({
    success: z.literal(false),
    error: z.object({ code: z.enum(declared(codes) as [string, ...string[]]), message: z.string(), details }),
  });
}

const json = (schema: JsonSchema, example?: unknown) => ({
  'application/json': {
    schema,
    ...(example === undefined ? {} : { examples: { example: { summary: 'A real answer', value: example } } }),
  },
});

export const RATE_LIMIT_HEADERS: Record<string, HeaderObject> = {
  'RateLimit-Limit': {
    description: "Requests per window: of the key's tier (market data), or JOB_SUBMIT_LIMIT_PER_MINUTE (job submits)",
    required: true,
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in this window',
    required: true,
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets',
    required: true,
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  'RateLimit-Policy': {
    description: '`<limit>;w=<window seconds>`',
    required: true,
    schema: { type: 'string', examples: ['60;w=60'] },
  },
};
export const rateLimitHeaderRefs = () =>
  Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]));
/** The RateLimit headers, marked required or not (a job submit carries them only while its limit is on). */
export const rateLimitHeaders = (required: boolean): Record<string, HeaderObject> =>
  Object.fromEntries(Object.entries(RATE_LIMIT_HEADERS).map(([name, header]) => [name, { ...header, required }]));

/** What a member whose role may not act is answered (require-team-role.ts). */
const TEAM_ROLE_REFUSAL = {
  success: false,
  error: 'Your team role (analyst) may not do this; it needs a member whose role is admin',
  code: 'INSUFFICIENT_TEAM_ROLE',
};

/** A response with a JSON body whose schema is built from zod here (per-operation code lists). */
export function errorResponse(
  description: string,
  schema: z.ZodType,
  example?: unknown,
  headers?: ResponseObject['headers'],
): ResponseObject {
  return { description, ...(headers ? { headers } : {}), content: json(jsonSchemaOf(schema, 'output'), example) };
}

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
  const activityWebhookError = components.response('ActivityWebhookError', activityWebhookErrorBody, {
    description:
      "The activity webhook's own error shape (spec 4.5): `{error}`, with the field at fault when there is one",
  });
  const retryAfter: HeaderObject = {
    description: 'Seconds to wait',
    required: true,
    schema: { type: 'string', pattern: '^\\d+$' },
  };
  return {
    InvalidParameter: errorResponse(
      'A parameter is missing, malformed or out of range (structured, code INVALID_PARAMETER)',
      invalidParameter,
      ERROR_EXAMPLES.invalidParameter,
    ),
    InvalidBody: errorResponse(
      'The body is not valid JSON, or a field is missing, malformed or out of range (structured ' +
        'INVALID_PARAMETER); a body the parser cannot read at all (e.g. ' +
        'an unknown Content-Encoding) is the flat BAD_REQUEST',
      z.union([invalidParameter, flatError(['BAD_REQUEST'], [], 'Malformed request')]),
      ERROR_EXAMPLES.invalidParameter,
    ),
    AuthenticationRequired: errorResponse(
      'No valid API key or session token',
      flatError([], [], 'Authentication required'),
      ERROR_EXAMPLES.authenticationRequired,
    ),
    MarketAuthenticationRequired: errorResponse(
      'No valid API key or session token; counted against the calling address at the free tier, ' +
        'so the RateLimit headers are present',
      flatError([], [], 'Authentication required'),
      ERROR_EXAMPLES.authenticationRequired,
      rateLimitHeaderRefs(),
    ),
    AdminRequired: errorResponse(
      'The caller is not an admin',
      flatError(['INSUFFICIENT_PERMISSIONS'], [], 'Admin privileges required'),
      ERROR_EXAMPLES.adminRequired,
    ),
    InsufficientScope: errorResponse(
      'The API key lacks the scope this operation names in its security (a session holds every scope)',
      flatError(['INSUFFICIENT_SCOPE']),
      ERROR_EXAMPLES.insufficientScope,
    ),
    AdminRequiredOrInsufficientScope: errorResponse(
      'The caller is not an admin, or its API key lacks the scope this operation names in its security',
      z.union([
        flatError(['INSUFFICIENT_PERMISSIONS'], [], 'Admin privileges required'),
        flatError(['INSUFFICIENT_SCOPE']),
      ]),
      ERROR_EXAMPLES.adminRequired,
    ),
    TeamRoleRequired: errorResponse(
      "The acting member's team role may not do this (docs/api.md#teams)",
      flatError(['INSUFFICIENT_TEAM_ROLE']),
      TEAM_ROLE_REFUSAL,
    ),
    TeamRoleRequiredOrInsufficientScope: errorResponse(
      "The acting member's team role may not do this, or the API key lacks the scope this operation names in its " +
        'security',
      flatError(['INSUFFICIENT_TEAM_ROLE', 'INSUFFICIENT_SCOPE']),
      TEAM_ROLE_REFUSAL,
    ),
    NotFound: errorResponse(
      "No such resource among the caller's own",
      flatError(['NOT_FOUND']),
      ERROR_EXAMPLES.notFound,
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
      ERROR_EXAMPLES.rateLimited,
      { 'Retry-After': retryAfter, ...rateLimitHeaderRefs() },
    ),
    JobSubmitLimited: errorResponse(
      "Over the account's job-submit limit (JOB_SUBMIT_LIMIT_PER_MINUTE a minute, one budget for all its keys and " +
        'sessions whatever their tier, shared by every route that starts paid work; every submit counts, refused ' +
        'ones included). Nothing was held, charged or created; retry after Retry-After seconds',
      structuredError(['RATE_LIMITED'], rateLimitDetails),
      ERROR_EXAMPLES.jobSubmitLimited,
      { 'Retry-After': retryAfter, ...rateLimitHeaderRefs() },
    ),
    SignatureInvalid: errorResponse(
      'The signature is missing, forged, or too old',
      flatError(['INVALID_SIGNATURE'], ['reason'], 'Unauthorized'),
      ERROR_EXAMPLES.signatureInvalid,
    ),
    WebhookNotConfigured: errorResponse(
      'Not configured on this deployment (its secret is unset), or the event could not be handed to Temporal ' +
        'now: the provider retries',
      flatError(['WEBHOOK_NOT_CONFIGURED', 'SERVICE_UNAVAILABLE']),
      ERROR_EXAMPLES.webhookNotConfigured,
    ),
    ActivityWebhookUnauthorized: {
      description: 'Missing or wrong X-Activity-Webhook-Secret (always, when ACTIVITY_WEBHOOK_SECRET is unset)',
      content: json(activityWebhookError, { error: 'Unauthorized' }),
    },
  };
}

export const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
