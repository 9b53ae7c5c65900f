import type { CaseSeverity, CaseSnapshot } from './case-model';

export type CaseSla = Record<CaseSeverity, { assignWithin: number; decideWithin: number }>;

/**
 * When the case escalates if nothing happens (ms since the epoch), and why: unassigned past its severity's
 * `assignWithin`, or not decided past `decideWithin`, both counted from `since` (it opened, reopened or escalated).
 * None for a closed case, nor for a critical one: there is no severity above it to raise it to.
 */
export function slaDeadline(
  c: Pick<CaseSnapshot, 'state' | 'severity' | 'assigneeId'>,
  sla: CaseSla,
  since: number,
): { at: number; reason: 'unassigned' | 'undecided' } | null {
  if (c.state === 'closed' || c.severity === 'critical') return null;
  const { assignWithin, decideWithin } = sla[c.severity];
  const decide = { at: since + decideWithin * 1000, reason: 'undecided' as const };
  if (c.state !== 'open' || c.assigneeId !== null) return decide;
  const assign = { at: since + assignWithin * 1000, reason: 'unassigned' as const };
  return assign.at <= decide.at ? assign : decide;
}
