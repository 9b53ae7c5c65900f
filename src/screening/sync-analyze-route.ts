import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import type { JobStore } from './jobs-store';
import { currentUser, requireScope } from '../identity';
import { flatError } from '../platform/http/errors';
import { failedJobCode } from './failed-job-code';
import { httpRequestIdOf } from '../platform/http/request-id';
import { submittedView, syncAnalyzeResultSchema } from './job-views';
import { parseAndCheck, refuseUnlessQueued, type ScreeningRouterDeps } from './screening-jobs-routes';

export const syncAnalyzeResponse = z.object({ success: z.literal(true), data: syncAnalyzeResultSchema });

/**
 * Deprecated POST /api/v1/kyt/analyze and /api/v1/kya/analyze: the same job, waited for in the request.
 * The analysis type follows the payload, not the path. If the wait runs out the caller gets 202 and the
 * job to poll, so a slow analysis is never lost with the connection.
 */
export function createSyncAnalyzeRouter(deps: ScreeningRouterDeps & { jobs: JobStore; waitMs: number }): Router {
  const router = Router();
  const handler: RequestHandler = async (req, res) => {
    res.set('Deprecation', 'true');
    res.set('Link', '</api/v1/kyt/job>; rel="successor-version"');
    const request = parseAndCheck(req.body, deps);
    const user = currentUser(res);
    const result = await deps.jobService.submit(user, request, { httpRequestId: httpRequestIdOf(res) });
    refuseUnlessQueued(result);
    const requestId = result.job.requestId;

    await deps.jobService.waitForOutcome(requestId, deps.waitMs).catch(() => null);
    const job = await deps.jobs.findForUser(requestId, user.id);
    if (!job || job.status === 'queued') {
      res
        .status(202)
        .location(`/api/v1/kyt/job/${requestId}`)
        .json({ success: true, data: submittedView(result.job) });
      return;
    }
    if (job.status === 'failed') {
      throw flatError(failedJobCode(job.error?.code), job.error?.message ?? 'Analysis failed', {
        request_id: requestId,
      });
    }
    res.json({ success: true, data: { ...job.response, request_id: requestId, reference_id: job.referenceId } });
  };
  router.post('/kyt/analyze', requireScope('screening'), deps.limitSubmits, handler);
  router.post('/kya/analyze', requireScope('screening'), deps.limitSubmits, handler);
  return router;
}
