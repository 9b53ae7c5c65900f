import type { PolicyRef } from '../policies/policy-types';
import { policyVersionName } from '../policies/policy-words';
import { RiskLevel } from './risk-level';

export interface StandardScore {
  risk_level: string;
  risk_score: number;
  model_version: string;
}

/**
 * A policy's verdict beside the standard model's, for an answer a policy scored: "Policy Strict v2: HIGH 70" and
 * "Standard model: MEDIUM 50". Without a policy, the standard model's score alone.
 */
export function PolicyScores({
  policy,
  level,
  score,
  standard,
}: {
  policy: PolicyRef | null | undefined;
  level: string;
  score: number;
  standard: StandardScore | null | undefined;
}) {
  return (
    <ul class="score-pair" data-testid="policy-scores">
      {policy ? (
        <li data-testid="policy-score">
          Policy <strong>{policyVersionName(policy)}</strong>: <RiskLevel level={level} /> <strong>{score}</strong>
        </li>
      ) : (
        <li data-testid="policy-score">
          Standard model: <RiskLevel level={level} /> <strong>{score}</strong>
        </li>
      )}
      {policy && standard && (
        <li data-testid="standard-score">
          Standard model: <RiskLevel level={standard.risk_level} /> <strong>{standard.risk_score}</strong>{' '}
          <span class="hint">model {standard.model_version}</span>
        </li>
      )}
    </ul>
  );
}
