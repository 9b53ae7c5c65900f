/**
 * A case: what one account's team does about one subject (an address or a transaction of a chain) that alerted.
 * Pure data, imported by the workflow bundle.
 */
export const CASE_STATES = ['open', 'assigned', 'proposed', 'closed'] as const;
export type CaseState = (typeof CASE_STATES)[number];

/** Escalation raises a case one step; `critical` is reached only by escalating a high one. */
export const CASE_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type CaseSeverity = (typeof CASE_SEVERITIES)[number];

/** `false_positive` and `true_positive` close a case; `escalated` hands it on (back to the queue, one step higher). */
export const DISPOSITIONS = ['false_positive', 'true_positive', 'escalated'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export const CASE_ACTIONS = ['assign', 'comment', 'attach_job', 'propose', 'approve', 'reject', 'reopen'] as const;
export type CaseActionName = (typeof CASE_ACTIONS)[number];

/** Team roles as src/identity/team.ts names them (kept here as data: the workflow bundle imports no feature). */
export type ActorRole = 'admin' | 'analyst' | 'approver';

/** Who acts: a member with the role the api authenticated (the worker checks it again), or the case's own timers. */
export type Actor = { kind: 'member'; memberId: string; role: ActorRole } | { kind: 'system' };

export interface Proposal {
  disposition: Disposition;
  note: string | null;
  memberId: string;
}

/** What the workflow holds of a case, and what every trail entry records before and after its action. */
export interface CaseSnapshot {
  state: CaseState;
  severity: CaseSeverity;
  /** A sanctions finding opened or joined the case: it closes only under four eyes, whatever its severity. */
  sanctions: boolean;
  assigneeId: string | null;
  proposal: Proposal | null;
  /** The disposition that closed it (null while not closed). */
  disposition: Disposition | null;
  decidedBy: string | null;
  /** The evidence fingerprints the case has seen (sorted), the newest last in `fingerprint`. */
  fingerprint: string;
  escalations: number;
  /** Jobs attached by members or by alerts (request ids), at most MAX_ATTACHED_JOBS. */
  jobs: string[];
}

export const MAX_ATTACHED_JOBS = 200;
export const MAX_NOTE_LENGTH = 4000;

/** The open action a member or the system asks for; `alert` and `escalate` come from the case's own machinery. */
export type CaseAction =
  | { action: 'assign'; assigneeId: string }
  | { action: 'comment'; text: string }
  | { action: 'attach_job'; requestId: string }
  | { action: 'propose'; disposition: Disposition; note: string | null }
  | { action: 'approve'; note: string | null }
  | { action: 'reject'; note: string | null }
  | { action: 'reopen'; note: string | null }
  | {
      action: 'alert';
      fingerprint: string;
      severity: CaseSeverity;
      sanctions: boolean;
      requestId: string | null;
      source: AlertSource;
    }
  | { action: 'escalate'; reason: 'unassigned' | 'undecided' };

export type AlertSource = 'monitor' | 'job' | 'batch_item' | 'rescore' | 'kyt';

export const higherSeverity = (a: CaseSeverity, b: CaseSeverity): CaseSeverity =>
  CASE_SEVERITIES.indexOf(a) >= CASE_SEVERITIES.indexOf(b) ? a : b;

export const nextSeverity = (s: CaseSeverity): CaseSeverity =>
  CASE_SEVERITIES[Math.min(CASE_SEVERITIES.indexOf(s) + 1, CASE_SEVERITIES.length - 1)] as CaseSeverity;

/** Four eyes: a high (or critical) case, or one with a sanctions finding, closes only on a second member's approval. */
export const needsFourEyes = (c: Pick<CaseSnapshot, 'severity' | 'sanctions'>): boolean =>
  c.sanctions || c.severity === 'high' || c.severity === 'critical';
