import type { HeaderObject, MediaType, Operation, ResponseObject } from './json-schema';

/** A JSON body's media type: its schema, and a real answer as its example when there is one. */
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
