import { z } from 'zod';

export type JsonSchema = { [keyword: string]: unknown };

/** Minimal OpenAPI 3.1 object shapes: enough to build the document with the compiler checking names. */
export interface MediaType {
  schema: JsonSchema;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
export interface HeaderObject {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}
export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | { $ref: string }>;
  content?: Record<string, MediaType>;
}
export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description?: string;
  deprecated?: boolean;
  schema: JsonSchema;
}
export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  deprecated?: boolean;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; description?: string; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject | { $ref: string }>;
  security: Array<Record<string, string[]>>;
}
export type PathItem = Partial<Record<'get' | 'put' | 'post' | 'delete' | 'patch', Operation>>;
export type Paths = Record<string, PathItem>;

/** zod → JSON Schema 2020-12 (OpenAPI 3.1's dialect), without the `$schema` / `$id` a component must not repeat. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const {
    $schema: _dialect,
    $id: _id,
    ...rest
  } = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as JsonSchema;
  return rest;
}

/**
 * The properties of a (query) object schema as OpenAPI parameters: required where the schema requires
 * them, the property's description on the parameter.
 */
export function queryParameters(schema: z.ZodType): ParameterObject[] {
  const json = jsonSchemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: 'query' as const,
      required: required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: propertySchema,
    };
  });
}

export const pathParameter = (
  name: string,
  description: string,
  schema: JsonSchema = { type: 'string' },
): ParameterObject => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});

/** A header the operation requires beside its security scheme (a webhook's delivery id, its timestamp). */
export const headerParameter = (
  name: string,
  description: string,
  schema: JsonSchema = { type: 'string' },
): ParameterObject => ({ name, in: 'header', required: true, description, schema });
