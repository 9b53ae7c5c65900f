import { z } from 'zod';
import type { JsonSchema } from './json-schema';

type Io = 'input' | 'output';
interface Entry {
  schema: z.ZodType;
  io: Io;
  extra: { description?: string; examples?: unknown[] };
}

/**
 * Named schemas for `components.schemas`: request bodies as zod reads them (`io: 'input'`), responses
 * as the routes produce them (`io: 'output'`). A registered schema nested in another one becomes a
 * `$ref`, so each shape is written once.
 */
export class SchemaComponents {
  private readonly entries = new Map<string, Entry>();

  /** A request body (or other input) schema; returns its `$ref`. */
  request(name: string, schema: z.ZodType, extra: Entry['extra'] = {}): { $ref: string } {
    return this.add(name, { schema, io: 'input', extra });
  }

  /** A response body schema; returns its `$ref`. */
  response(name: string, schema: z.ZodType, extra: Entry['extra'] = {}): { $ref: string } {
    return this.add(name, { schema, io: 'output', extra });
  }

  private add(name: string, entry: Entry): { $ref: string } {
    const existing = this.entries.get(name);
    if (existing && (existing.schema !== entry.schema || existing.io !== entry.io))
      throw new Error(`OpenAPI: two different schemas are named ${name}`);
    if (!existing) this.entries.set(name, entry);
    return { $ref: `#/components/schemas/${name}` };
  }

  build(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const io of ['input', 'output'] as const) {
      const registry = z.registry<{ id: string }>();
      for (const [name, entry] of this.entries) if (entry.io === io) registry.add(entry.schema, { id: name });
      const { schemas } = z.toJSONSchema(registry, {
        target: 'draft-2020-12',
        io,
        uri: (id) => `#/components/schemas/${id}`,
      }) as { schemas: Record<string, JsonSchema> };
      for (const [name, schema] of Object.entries(schemas)) {
        const { $schema: _dialect, $id: _id, ...rest } = schema;
        out[name] = { ...rest, ...this.entries.get(name)?.extra };
      }
    }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }
}
