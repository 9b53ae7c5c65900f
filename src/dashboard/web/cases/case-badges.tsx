import { RiskLevel } from '../screen/risk-level';
import type { CaseSeverity, CaseState } from './case-types';
import { STATE_WORDS } from './case-words';

/** A case's severity in the colours and words of a risk level (LOW … CRITICAL). */
export function SeverityBadge({ severity }: { severity: CaseSeverity }) {
  return (
    <span data-testid="case-severity">
      <RiskLevel level={severity} />
    </span>
  );
}

/** A case's state as a badge; `explain` adds what the state means (the case page, where there is room). */
export function StateBadge({ state, explain = false }: { state: CaseState; explain?: boolean }) {
  const [word, meaning] = STATE_WORDS[state].split(': ');
  return (
    <span class="case-state-line">
      <span class={`case-state case-state-${state}`} data-testid="case-state">
        {word}
      </span>
      {explain && meaning && <span class="hint"> {meaning}</span>}
    </span>
  );
}

/** Marks a case that closes only when an approver other than the proposer approves. */
export function FourEyesMark({ fourEyes }: { fourEyes: boolean }) {
  if (!fourEyes) return null;
  return (
    <span
      class="four-eyes"
      data-testid="four-eyes"
      title="Closes only when an approver other than the proposer approves"
    >
      Four eyes
    </span>
  );
}
