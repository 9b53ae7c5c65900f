import type { RequestHandler } from 'express';

/**
 * What features offer each other inside one process without importing each other at run time: when feature B is
 * built over feature A (imports it), A cannot import B to tell it something or to read what B holds, or the
 * import graph would have a cycle. The feature that needs the port declares it in this interface from its own
 * `ports.ts` (TypeScript declaration merging), the feature that has it provides it in its module's `provides`, and
 * the consumer reads `runtime.ports`: the types are checked across features, the import graph keeps no cycle.
 *
 * A port is a function or an object of functions, never a connection: providers build it over the runtime they
 * are given, and a consumer may read another port only when its own code runs (not while being built).
 */
export interface FeaturePorts {
  /**
   * The platform's own port: who is calling, as the middleware that guards /api/v1 (and any route a feature
   * authenticates itself), provided by the feature that holds the accounts.
   */
  authenticate: RequestHandler;
}
