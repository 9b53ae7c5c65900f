import type { AlertSource, CaseAction, CaseSeverity, CaseSnapshot } from './domain/case-model';

export interface CaseWorkflowInput {
  caseId: string;
  accountId: string;
  /** Continue as new past this many events (tests use a small one); clamped to 200-4000, default 4000. */
  continueAsNewAfterEvents?: number;
}

/** An alert that reached the case (signal `alert`): recorded first in case_alerts by its key (openCaseForAlert). */
export interface CaseAlert {
  alertKey: string;
  source: AlertSource;
  requestId: string | null;
  fingerprint: string;
  severity: CaseSeverity;
  sanctions: boolean;
}

/** The member actions a route sends as Temporal updates, one update per action name. */
export type MemberCaseAction = Exclude<CaseAction, { action: 'alert' } | { action: 'escalate' }>;

/** An update's argument: who acts (as the api authenticated them; the worker confirms the role) and what. */
export interface CaseActionRequest {
  memberId: string;
  role: 'admin' | 'analyst' | 'approver';
  action: MemberCaseAction;
}

/** What an accepted update answers: the case after it, and the trail length that records it. */
export interface CaseActionResult {
  caseId: string;
  trailLength: number;
  snapshot: CaseSnapshot;
}

/** What a run starts from: the mirror as the last run left it (loadCase). */
export interface LoadedCase {
  snapshot: CaseSnapshot;
  trailLength: number;
  /** When the SLA clock last started (the case opened, reopened or escalated), ISO. */
  slaSince: string;
  /** Seconds, for the case's severity: its account's or the service default. */
  sla: Record<CaseSeverity, { assignWithin: number; decideWithin: number }>;
  /**
   * The ids of the updates its latest entries recorded (at most 1,000): Temporal drops a repeated update id only
   * within one run, so a client's retry that reaches the next run is recognised here and answered, not applied again.
   */
  appliedUpdateIds: string[];
}

/** One entry the workflow hands to appendCaseEntries: the worker hashes, signs and stores it with the mirror. */
export interface PendingTrailEntry {
  seq: number;
  at: string;
  actor: { kind: 'member'; memberId: string; role: string } | { kind: 'system' };
  action: string;
  detail: Record<string, unknown>;
  before: CaseSnapshot;
  after: CaseSnapshot;
  closing: { disposition: 'false_positive' | 'true_positive'; fingerprint: string } | null;
  escalated: boolean;
  /** The entry restarts the SLA clock (opened, reopened, escalated). */
  restartsSla: boolean;
  /** The update that made it (null: an alert or a timer). */
  updateId: string | null;
}

export const CASE_SIGNALS = { alert: 'alert' } as const;

/** Published for other features' workflows, which open cases (type-only). */
export type { CaseActivities } from './activities';
