import type { Logger } from '../platform/logging/logger';
import { errorFields } from '../platform/logging/logger';
import type { JobStore } from '../screening';
import type { OpenCaseDeps } from './open-case';
import { openCaseForAlert } from './open-case';

interface RescoredAnswer {
  request_id: string;
  policy: { id: string; version: number } | null;
  risk_level: string;
  rule_scores: Record<string, unknown>;
  hits: unknown[];
}

/**
 * A rescore whose verdict is review or block opens or joins its job's subject's case, keyed by the rescore
 * (`rescore:<request id>:<policy id>:<version>`), so asking for the same rescore again records it once. The rescore is
 * paid and stored before this runs: a failure here is logged and repaired by the next repeat, never the caller's 5xx.
 */
export function createRescoreAlerts(deps: OpenCaseDeps & { jobs: Pick<JobStore, 'findForUser'>; log: Logger }) {
  return async (accountId: string, view: RescoredAnswer): Promise<void> => {
    try {
      const job = await deps.jobs.findForUser(view.request_id, accountId);
      if (!job) return;
      const policy = view.policy ? `${view.policy.id}:${view.policy.version}` : 'standard:0';
      await openCaseForAlert(deps, {
        accountId,
        source: 'rescore',
        alertKey: `rescore:${view.request_id}:${policy}`,
        requestId: view.request_id,
        answer: {
          apiType: job.apiType,
          chain: job.chain,
          target: job.target,
          response: { risk_level: view.risk_level, rule_scores: view.rule_scores },
          fullResponse: { hits: view.hits },
        },
      });
    } catch (err) {
      deps.log.warn('a rescore could not reach its case; asking for the rescore again retries', {
        requestId: view.request_id,
        ...errorFields(err),
      });
    }
  };
}
