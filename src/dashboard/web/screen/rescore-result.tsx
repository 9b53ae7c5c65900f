import { utcMinuteOrDash } from '../markets/utc-time';
import { PolicyScores } from './policy-scores';
import type { RescoreView } from './rescore-types';
import { RuleScores } from './rule-scores';

/** A rescore's verdict: both scores, the reason, the rule scores, and what it cost. */
export function RescoreResult({ result }: { result: RescoreView }) {
  return (
    <div class="rescore-result" data-testid="rescore-result">
      <PolicyScores
        policy={result.policy}
        level={result.risk_level}
        score={result.risk_score}
        standard={result.standard}
      />
      <p class="risk-reason">{result.risk_reason}</p>
      <RuleScores scores={result.rule_scores} />
      <p class="hint">
        Rescored {utcMinuteOrDash(result.rescored_at)} for {result.credits_charged} credit
        {result.credits_charged === 1 ? '' : 's'} (asking again for the same policy version costs nothing); the job's
        own answer is unchanged.
      </p>
    </div>
  );
}
