import type { Pool } from 'pg';
import type { CreditStore } from '../../billing';
import { AppError } from '../../platform/errors';
import { inTransaction } from '../../platform/db/transaction';
import { notFound } from '../../platform/http/errors';
import { reasonOf } from '../engine/answer-assembly';
import type { RiskModel } from '../engine/risk-model';
import type { ScoringEvidence } from '../engine/scoring-evidence';
import { scoreEvidence } from '../engine/scoring-evidence';
import { rulesOf, standardRules, STANDARD_POLICY_ID } from '../engine/scoring-policy';
import { policyVerdict } from '../engine/policy-verdict';
import type { JobStore } from '../jobs-store';
import type { PolicyResolver } from '../policy-resolver';
import { RESCORE_PRICE } from '../pricing';
import type { RescoreView } from './rescore-views';
import { createRescoreStore } from './rescore-store';
import { creditRefusal } from '../credit-refusal';
import { SCREENING_ERRORS } from '../error-codes';

export class JobNotRescorableError extends AppError {
  constructor(message: string) {
    super(SCREENING_ERRORS.JOB_NOT_RESCORABLE, message);
  }
}

export interface RescoreDeps {
  pool: Pool;
  jobs: Pick<JobStore, 'findForUser'>;
  credits: Pick<CreditStore, 'consume' | 'balance'>;
  policies: PolicyResolver;
  model: RiskModel;
}

/**
 * Scores a stored job again under a policy from the evidence kept with its answer: no chain call, no list lookup, no
 * crawl. Priced RESCORE_PRICE; one rescore per (job, policy version): the row and the charge (ledger key
 * `rescore:<request_id>:<policy id>:<version>`) are written in one transaction, so a repeat, or twenty at once,
 * return the first rescore and charge once. The job's own answer is never changed. An account in debt is refused
 * (402 CREDITS_IN_DEBT), like every paid route.
 */
export function createRescorer(deps: RescoreDeps) {
  const store = createRescoreStore();
  return async function rescore(userId: string, requestId: string, policyId: string | undefined): Promise<RescoreView> {
    const job = await deps.jobs.findForUser(requestId, userId);
    if (!job) throw notFound('Job');
    const evidence = (job.fullResponse as { scoring_evidence?: ScoringEvidence } | null)?.scoring_evidence;
    if (job.status !== 'completed')
      throw new JobNotRescorableError(`the job is ${job.status}: only a completed job can be scored again`);
    if (!evidence)
      throw new JobNotRescorableError('the job was stored before answers kept their scoring evidence: screen it again');
    const policy = await deps.policies.resolve(userId, policyId);
    const key = { requestId, policyId: policy?.id ?? STANDARD_POLICY_ID, policyVersion: policy?.version ?? 0 };

    const scored = scoreEvidence(rulesOf(deps.model, policy), evidence);
    const standard = scoreEvidence(standardRules(deps.model), evidence);
    const verdict = policy
      ? policyVerdict(policy, standard, deps.model.version)
      : {
          policy: null,
          standard: {
            risk_level: standard.riskLevel,
            risk_score: standard.riskScore,
            model_version: deps.model.version,
          },
        };
    const crawlNote = (job.fullResponse as { crawl?: { note?: string | null } }).crawl?.note ?? null;
    const result = {
      request_id: requestId,
      ...verdict,
      risk_level: scored.riskLevel,
      risk_score: scored.riskScore,
      risk_reason: reasonOf(scored, crawlNote),
      rule_scores: scored.ruleScores,
      hits: scored.hits,
    };

    return inTransaction(deps.pool, async (client) => {
      const stored = await store.insert(client, { ...key, userId, result, creditsCharged: RESCORE_PRICE });
      if (!stored.inserted) return stored.view;
      // An account in debt starts no paid work, as a submit holds nothing for it: 402 CREDITS_IN_DEBT, and the
      // rescore row rolls back with the transaction. (A repeat of a stored rescore charges nothing: answered above.)
      const { available, debt } = await deps.credits.balance(userId, client);
      if (debt > 0) throw creditRefusal({ needed: RESCORE_PRICE, available, debt, what: 'a rescore' });
      await deps.credits.consume(
        {
          userId,
          amount: RESCORE_PRICE,
          idempotencyKey: `rescore:${requestId}:${key.policyId}:${key.policyVersion}`,
          holdKey: null,
          reason: `rescore of job ${requestId} under ${key.policyId}${policy ? ` v${policy.version}` : ''}`,
          metadata: { request_id: requestId, policy_id: key.policyId, policy_version: key.policyVersion },
        },
        client,
      );
      return stored.view;
    });
  };
}

export type Rescorer = ReturnType<typeof createRescorer>;
