import { Router } from 'express';
import { currentUser, requireScope } from '../../identity';
import { isUuid } from '../../platform/http/common-patterns';
import { notFound, parseOrThrow } from '../../platform/http/errors';
import type { Rescorer } from './rescore-job';
import { rescoreBody, type RescoreView } from './rescore-views';

/**
 * What follows a rescore: the cases feature opens a case when its verdict is review or block (wired by src/app).
 * Called again on every repeat of the rescore (idempotent by the rescore's key), so a repeat completes it.
 */
export type OnRescored = (accountId: string, view: RescoreView) => Promise<void>;

/** POST /api/v1/kyt/job/:requestId/rescore: a stored answer scored again under a policy (priced RESCORE_PRICE). */
export function createRescoreRouter(deps: { rescore: Rescorer; onRescored?: OnRescored }): Router {
  const router = Router();
  router.post('/kyt/job/:requestId/rescore', requireScope('screening'), async (req, res) => {
    const { policy_id } = parseOrThrow(rescoreBody, req.body ?? {});
    if (!isUuid(req.params.requestId)) throw notFound('Job');
    const view = await deps.rescore(currentUser(res).id, req.params.requestId, policy_id);
    await deps.onRescored?.(currentUser(res).id, view);
    res.json({ success: true, data: view });
  });
  return router;
}
