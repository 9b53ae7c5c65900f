import type { CaseSeverity, CaseState, Disposition, TeamRole } from './case-types';

export const CASE_STATES: readonly CaseState[] = ['open', 'assigned', 'proposed', 'closed'];
export const CASE_SEVERITIES: readonly CaseSeverity[] = ['low', 'medium', 'high', 'critical'];
export const DISPOSITIONS: readonly Disposition[] = ['false_positive', 'true_positive', 'escalated'];

/** What each state means for the team, said next to its badge where there is room. */
export const STATE_WORDS: Record<CaseState, string> = {
  open: 'open: nobody has taken it',
  assigned: 'assigned: being reviewed',
  proposed: 'proposed: waiting for an approver',
  closed: 'closed: decided',
};

export const DISPOSITION_WORDS: Record<Disposition, string> = {
  false_positive: 'False positive',
  true_positive: 'True positive',
  escalated: 'Escalate',
};

/** What a proposal of each disposition does, for the propose form. */
export const DISPOSITION_EFFECTS: Record<Disposition, string> = {
  false_positive: 'the same evidence opens no new case for a while; new evidence does',
  true_positive: "the subject joins the account's blocklist and the case file is ready for a report",
  escalated: 'the case goes back to the queue one severity higher, unassigned',
};

export const ROLE_WORDS: Record<TeamRole, string> = { admin: 'admin', analyst: 'analyst', approver: 'approver' };

export const SOURCE_WORDS: Record<string, string> = {
  monitor: 'a monitor',
  job: 'a screening job',
  batch_item: 'a batch item',
  rescore: 'a rescore',
  kyt: 'a KYT screening',
};

/** The first 12 hex digits of a trail hash: enough to compare with a verifier's output by eye. */
export const shortHash = (hash: string): string => hash.slice(0, 12);

export const dispositionWords = (d: string | null | undefined): string =>
  d && d in DISPOSITION_WORDS ? DISPOSITION_WORDS[d as Disposition].replace('Escalate', 'Escalated') : (d ?? '—');
