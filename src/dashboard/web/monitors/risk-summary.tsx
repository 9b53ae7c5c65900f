import { RiskLevel } from '../screen/risk-level';
import type { MonitorSummary } from './monitor-types';
import { summaryFacts } from './monitor-words';

/** One screening's outcome as a monitor keeps it: the level in colour and words, then score, sanctions, findings. */
export function RiskSummary({ summary }: { summary: MonitorSummary | null }) {
  if (!summary) return <span class="hint">not screened yet</span>;
  return (
    <span class="risk-summary-line">
      <RiskLevel level={summary.risk_level} /> {summaryFacts(summary)}
    </span>
  );
}
