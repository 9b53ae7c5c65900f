import type { AlertLevel, MonitorAlert, MonitorSummary } from './monitor-types';

export const ALERT_KIND_WORDS: Record<MonitorAlert['kind'], string> = {
  risk_changed: 'Risk changed',
  paused: 'Paused',
  resumed: 'Resumed',
};

/** The alert levels as the form offers them (src/monitors/monitor-summary.ts alertReason decides). */
export const ALERT_LEVELS: readonly (readonly [AlertLevel, string])[] = [
  ['LOW', 'LOW: every change'],
  ['MEDIUM', 'MEDIUM and above'],
  ['HIGH', 'HIGH only'],
];

export const alertLevelWords = (level: AlertLevel): string =>
  level === 'HIGH' ? 'changes at HIGH' : `changes at ${level} and above`;

/** "score 100 · on a sanctions list · 2 findings": the rest of a summary after its level. */
export function summaryFacts(summary: MonitorSummary): string {
  const findings = summary.hits.length === 1 ? '1 finding' : `${summary.hits.length} findings`;
  return [
    `score ${summary.risk_score}`,
    summary.sanctioned ? 'on a sanctions list' : 'not on a sanctions list',
    findings,
  ].join(' · ');
}
