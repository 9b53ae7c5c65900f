import { Router } from 'express';
import { z } from 'zod';
import { runChecks, type Check } from './checks';

export const livenessResponse = z.object({ status: z.literal('ok') });
const checkResult = z.object({
  ok: z.boolean(),
  latencyMs: z.int().min(0),
  error: z.string().optional().meta({ description: 'Why the check failed' }),
  detail: z.string().optional().meta({ description: 'What was seen, e.g. the number of pollers' }),
});
export const readinessResponse = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']).meta({
    description: 'degraded: serving, but an advisory failed (e.g. a sanctions list older than its maximum age)',
  }),
  checks: z.record(z.string(), checkResult).meta({
    description: 'One entry per dependency: postgres, temporal, worker (api); worker, postgres (worker process)',
  }),
});

/**
 * GET /healthz: the process is alive and its event loop turns (no dependency is asked, so a database
 * outage never gets a healthy process restarted). GET /readyz: every dependency answers within the
 * probe timeout, else 503 naming the one that did not; 200 `degraded` when only an advisory failed.
 */
export function createHealthRouter(checks: Record<string, Check>, advisories: Record<string, Check> = {}): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    // Advisories (a stale list) say the answers may be outdated; they never take the process out of rotation.
    const [readiness, advice] = await Promise.all([runChecks(checks), runChecks(advisories)]);
    const status = !readiness.ready ? 'unavailable' : advice.ready ? 'ok' : 'degraded';
    res
      .set('Cache-Control', 'no-store')
      .status(readiness.ready ? 200 : 503)
      .json({ status, checks: { ...readiness.checks, ...advice.checks } });
  });
  return router;
}
