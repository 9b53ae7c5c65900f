import { Router } from 'express';
import { z } from 'zod';
import { runChecks, type Check, type Readiness } from './checks';

export const livenessResponse = z.object({ status: z.literal('ok') });
const checkResult = z.object({
  ok: z.boolean(),
  latencyMs: z.int().min(0),
  error: z.string().optional().meta({ description: 'Why the check failed' }),
  detail: z.string().optional().meta({ description: 'What was seen, e.g. the number of pollers' }),
});
/** The internal listener's /readyz body (not in the OpenAPI document: that port is not the public API). */
export const detailedReadinessResponse = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']).meta({
    description: 'degraded: serving, but an advisory failed (e.g. a sanctions list older than its maximum age)',
  }),
  checks: z.record(z.string(), checkResult).meta({
    description: 'One entry per dependency: postgres, temporal, worker (api); worker, postgres (worker process)',
  }),
});

/** What the public port says about readiness: ready or not, nothing about the dependencies behind it. */
export const publicReadinessResponse = z.object({ status: z.enum(['ready', 'not_ready']) });

/**
 * The public port's probes: GET /healthz (as createHealthRouter's) and GET /readyz, 200 `ready` when every dependency
 * answers, else 503 `not_ready`. Which dependency failed, latencies and error texts stay on the internal listener
 * (createHealthRouter): they map the deployment for whoever asks. Concurrent probes share one run of the checks, so
 * a flood of public probes costs Postgres and Temporal one check at a time.
 */
export function createPublicHealthRouter(checks: Record<string, Check>): Router {
  const router = Router();
  let running: Promise<Readiness> | undefined;
  const readiness = () => {
    running ??= runChecks(checks).finally(() => {
      running = undefined;
    });
    return running;
  };
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const { ready } = await readiness();
    res
      .set('Cache-Control', 'no-store')
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'not_ready' });
  });
  return router;
}

/**
 * The internal listener's probes (operations-server.ts). GET /healthz: the process is alive and its event loop
 * turns (no dependency is asked, so a database outage never gets a healthy process restarted). GET /readyz: every
 * dependency answers within the probe timeout, else 503 naming the one that did not; 200 `degraded` when only an
 * advisory failed.
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
