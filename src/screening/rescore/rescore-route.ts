import { Router } from 'express';
import { currentUser, requireScope } from '../../identity';
import { isUuid } from '../../platform/http/common-patterns';
import { notFound, parseOrThrow } from '../../platform/http/errors';
import type { Rescorer } from './rescore-job';
import { rescoreBody } from './rescore-views';

/** POST /api/v1/kyt/job/:requestId/rescore: a stored answer scored again under a policy (priced RESCORE_PRICE). */
export function createRescoreRouter(deps: { rescore: Rescorer }): Router {
  const router = Router();
  router.post('/kyt/job/:requestId/rescore', requireScope('screening'), async (req, res) => {
    const { policy_id } = parseOrThrow(rescoreBody, req.body ?? {});
    if (!isUuid(req.params.requestId)) throw notFound('Job');
    const view = await deps.rescore(currentUser(res).id, req.params.requestId, policy_id);
    res.json({ success: true, data: view });
  });
  return router;
}
