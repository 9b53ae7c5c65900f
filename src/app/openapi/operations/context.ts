import type { HeaderObject, MediaType, Operation, ResponseObject } from '../json-schema';
import type { SchemaComponents } from '../schema-components';

/** What every route group's operations are built from. */
export interface OperationContext {
  components: SchemaComponents;
  /** Limits the validators are configured with (they appear as minimum / maximum). */
  limits: { maxCrawlTimeoutMs: number };
}

export type { Operation };

export const jsonContent = (
  schema: { $ref: string } | Record<string, unknown>,
  example?: unknown,
): Record<string, MediaType> => ({
  'application/json': {
    schema,
    ...(example === undefined ? {} : { examples: { example: { summary: 'A real answer', value: example } } }),
  },
});

/** A success answer with a JSON body. */
export function ok(
  description: string,
  schema: { $ref: string },
  example?: unknown,
  headers?: Record<string, HeaderObject | { $ref: string }>,
): ResponseObject {
  return { description, ...(headers ? { headers } : {}), content: jsonContent(schema, example) };
}

/** A JSON request body. */
export function jsonBody(
  schema: { $ref: string },
  example?: unknown,
  description?: string,
): NonNullable<Operation['requestBody']> {
  return { required: true, ...(description ? { description } : {}), content: jsonContent(schema, example) };
}

export const LOCATION_HEADER: HeaderObject = {
  description: 'Where to poll the job: /api/v1/kyt/job/{requestId}',
  required: true,
  schema: { type: 'string' },
};
