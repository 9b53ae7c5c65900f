import { z } from 'zod';
import { jsonContent } from './json-content';
import type { ResponseObject } from './json-schema';
import { jsonSchemaOf } from './json-schema';

/**
 * The contract's two error shapes (spec 7, src/platform/http/errors.ts) and the responses built from them.
 * Flat: `{success:false, error:<message>, code?}` (plus a few named extras); structured:
 * `{success:false, error:{code, message, details}}` (every INVALID_PARAMETER 400, market 404/429).
 * Codes are named as strings here, where no error table is in reach: the document builder (src/app/openapi) checks
 * every code the finished document names against the declared ones.
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
  reason: z
    .string()
    .optional()
    .meta({
      description:
        '401 INVALID_SIGNATURE: why the signature was refused; ' +
        '402 PAYMENT_REJECTED / SETTLEMENT_FAILED: why the payment was refused',
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

/** A flat error limited to `codes` (none = the code is absent) and the extras named. */
export function flatError(
  codes: readonly string[],
  extras: readonly (keyof typeof flatExtras)[] = [],
  message?: string,
) {
  const picked = Object.fromEntries(extras.map((k) => [k, flatExtras[k]]));
  return z.object({
    success: z.literal(false),
    error: message === undefined ? z.string() : z.literal(message),
    ...(codes.length > 0 ? { code: z.enum(codes as [string, ...string[]]) } : {}),
    ...picked,
  });
}

/** A structured error limited to `codes`, with its details' schema. */
export function structuredError(codes: readonly string[], details: z.ZodType) {
  return z.object({
    success: z.literal(false),
    error: z.object({ code: z.enum(codes as [string, ...string[]]), message: z.string(), details }),
  });
}

/** A response with a JSON body whose schema is built from zod here (per-operation code lists). */
export function errorResponse(
  description: string,
  schema: z.ZodType,
  example?: unknown,
  headers?: ResponseObject['headers'],
): ResponseObject {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: jsonContent(jsonSchemaOf(schema, 'output'), example),
  };
}

/** A reference to one of `components.responses`, the answers many operations share (src/app/openapi). */
export const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
