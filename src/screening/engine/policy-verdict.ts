import type { ScoreResult } from './scoring';
import type { PolicySnapshot } from './scoring-policy';

/** Which policy scored an answer, and the standard model's score beside it (so both can be compared). */
export interface PolicyVerdict {
  policy: { id: string; version: number; name: string };
  standard: { risk_level: ScoreResult['riskLevel']; risk_score: number; model_version: string };
}

export function policyVerdict(policy: PolicySnapshot, standard: ScoreResult, modelVersion: string): PolicyVerdict {
  return {
    policy: { id: policy.id, version: policy.version, name: policy.document.name },
    standard: { risk_level: standard.riskLevel, risk_score: standard.riskScore, model_version: modelVersion },
  };
}
