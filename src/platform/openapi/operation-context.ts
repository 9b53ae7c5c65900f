import type { Paths } from './json-schema';
import type { SchemaComponents } from './schema-components';

/** What every group of operations is built from: the document's one set of named schemas, and the config. */
export interface OperationContext {
  components: SchemaComponents;
  /**
   * The process's config: a feature's request schemas are built from the same figures its routes were given (they
   * appear as minimum / maximum), so the document states the deployment's bounds. Each reads its own slice's keys.
   */
  config: Readonly<Record<string, unknown>>;
}

/** One group of operations (a route file's, usually), by path and method. */
export type OperationGroup = (context: OperationContext) => Paths;
