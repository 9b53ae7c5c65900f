import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * One metric as the feature that owns it defines it: name, help, labels (and buckets) stated once, so two
 * processes exposing the same name always mean the same thing by it. Each process registers the ones it
 * counts on its own registry (createMetricsRegistry) and gets the typed prom-client handle back.
 */
export interface MetricDefinition<Handle> {
  register(registry: Registry): Handle;
}

interface MetricShape<Label extends string> {
  name: string;
  help: string;
  labelNames?: readonly Label[];
}

/**
 * Registering a definition on a registry that has it already returns the registered handle: the parts of one
 * process that count the same thing (a feature's route and the api's metrics object) share one series.
 */
export function defineCounter<Label extends string = string>(
  shape: MetricShape<Label>,
): MetricDefinition<Counter<Label>> {
  return {
    register: (registry) =>
      (registry.getSingleMetric(shape.name) as Counter<Label> | undefined) ??
      new Counter({ ...shape, registers: [registry] }),
  };
}

export function defineHistogram<Label extends string = string>(
  shape: MetricShape<Label> & { buckets: number[] },
): MetricDefinition<Histogram<Label>> {
  return {
    register: (registry) =>
      (registry.getSingleMetric(shape.name) as Histogram<Label> | undefined) ??
      new Histogram({ ...shape, registers: [registry] }),
  };
}

type Handles<Definitions> = {
  [Key in keyof Definitions]: Definitions[Key] extends MetricDefinition<infer Handle> ? Handle : never;
};

/** Registers every definition on `registry`; the handles come back under the same keys. */
export function registerAll<Definitions extends Record<string, MetricDefinition<unknown>>>(
  registry: Registry,
  definitions: Definitions,
): Handles<Definitions> {
  const entries = Object.entries(definitions).map(([key, definition]) => [key, definition.register(registry)]);
  return Object.fromEntries(entries) as Handles<Definitions>;
}
