import type { Paths } from './json-schema';
import type { SchemaComponents } from './schema-components';

/** What every group of operations is built from: the document's one set of named schemas, and the configured limits. */
export interface OperationContext {
  components: SchemaComponents;
  /**
   * Limits the validators are configured with (they appear as minimum / maximum): the request schemas are built from
   * the same figures the routes were given, so the document states the deployment's bounds.
   */
  limits: { maxCrawlTimeoutMs: number };
}

/** One group of operations (a route file's, usually), by path and method. */
export type OperationGroup = (context: OperationContext) => Paths;
