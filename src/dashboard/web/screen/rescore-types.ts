import type { PolicyRef } from '../policies/policy-types';
import type { FullResponse } from './job-types';
import type { StandardScore } from './policy-scores';

/** POST /api/v1/kyt/job/:id/rescore `data`: the stored evidence scored under a policy, the standard score beside. */
export interface RescoreView {
  request_id: string;
  /** null: the standard model ('standard'). */
  policy: PolicyRef | null;
  risk_level: FullResponse['risk_level'];
  risk_score: number;
  risk_reason: string;
  rule_scores: Record<string, number>;
  hits: FullResponse['hits'];
  standard: StandardScore;
  /** What the rescore cost when it was first asked; a repeat for the same policy version costs nothing. */
  credits_charged: number;
  /** ISO 8601. */
  rescored_at: string;
}
