/** What a monitor compares between two jobs on its address: a change in any of these is an alert. */
export interface MonitorSummary {
  risk_level: 'LOW' | 'MEDIUM' | 'HIGH';
  risk_score: number;
  sanctioned: boolean;
  /** Each finding as `rule category address`, sorted: a new or vanished finding is a change. */
  hits: string[];
}

interface ScreeningAnswer {
  response: { risk_level: 'LOW' | 'MEDIUM' | 'HIGH'; risk_score: number; rule_scores: { is_sanctioned: number } };
  full: { hits: { rule: string; category: string; address: string }[] } | null;
}

export function summarise(answer: ScreeningAnswer): MonitorSummary {
  const hits = new Set((answer.full?.hits ?? []).map((h) => `${h.rule} ${h.category} ${h.address}`));
  return {
    risk_level: answer.response.risk_level,
    risk_score: answer.response.risk_score,
    sanctioned: answer.response.rule_scores.is_sanctioned > 0,
    hits: [...hits].sort(),
  };
}

const RANK = { LOW: 0, MEDIUM: 1, HIGH: 2 } as const;

/**
 * Why a re-screen alerts, or null when it does not: the sanctioned flag changed (always), or the level or the set
 * of findings changed while either side is at or above the monitor's alert level.
 */
export function alertReason(
  before: MonitorSummary,
  after: MonitorSummary,
  alertLevel: 'LOW' | 'MEDIUM' | 'HIGH',
): string | null {
  if (before.sanctioned !== after.sanctioned) {
    return after.sanctioned ? 'the address is now on a sanctions list' : 'the address is no longer on a sanctions list';
  }
  const reaches = Math.max(RANK[before.risk_level], RANK[after.risk_level]) >= RANK[alertLevel];
  if (!reaches) return null;
  if (before.risk_level !== after.risk_level) return `risk level ${before.risk_level} → ${after.risk_level}`;
  const added = after.hits.filter((h) => !before.hits.includes(h));
  const removed = before.hits.filter((h) => !after.hits.includes(h));
  if (added.length === 0 && removed.length === 0) return null;
  return `findings changed: ${added.length} new, ${removed.length} gone`;
}
