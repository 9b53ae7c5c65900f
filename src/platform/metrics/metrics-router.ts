import { Router } from 'express';
import type { Registry } from 'prom-client';

/**
 * GET /metrics in Prometheus' text format: the registry, then `extra` (the worker appends the Temporal
 * SDK's own metrics there, so one scrape per process sees everything).
 */
export function createMetricsRouter(registry: Registry, extra?: () => Promise<string>): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    const own = await registry.metrics();
    const more = extra ? await extra() : '';
    res
      .set('Cache-Control', 'no-store')
      .type(registry.contentType)
      .send(more ? `${own}\n${more}` : own);
  });
  return router;
}
