import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * A registry of its own for each role (api, worker) instead of prom-client's global one: `npm start`
 * runs both roles in one process and the tests run several stacks in one jest process, and each must
 * expose only its own counters. The default process metrics (CPU, memory, event-loop lag, GC) keep
 * their standard names so existing dashboards find them.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
