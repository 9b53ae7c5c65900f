/**
 * The cases API as the dashboard reads it, derived from the schemas the routes answer with (src/cases/case-views.ts).
 * Type-only imports: esbuild erases them, so no server code is bundled.
 */
import type { z } from 'zod';
import type { caseDetailResponse, caseListResponse, caseSchema } from '../../../cases';

/** GET /api/v1/cases item, and the `data` of every action's answer. */
export type CaseView = z.output<typeof caseSchema>;
export type CaseList = z.output<typeof caseListResponse>;
/** GET /api/v1/cases/:id `data`: the case with its audit trail (oldest first) and its alerts (newest first). */
export type CaseDetail = z.output<typeof caseDetailResponse>['data'];
export type TrailEntry = CaseDetail['trail'][number];
export type CaseAlert = CaseDetail['alerts'][number];

export type CaseState = CaseView['state'];
export type CaseSeverity = CaseView['severity'];
export type Disposition = NonNullable<CaseView['disposition']>;

/**
 * `case_updated` on the socket, for every trail entry written (src/cases/case-store.ts notify), and `case_escalated`
 * with the same payload when the entry escalated the case.
 */
export interface CaseEvent {
  caseId: string;
  /** The trail entry's number: the case's trail is at least this long once the event is sent. */
  seq: number;
  action: string;
  state: CaseState;
  severity: CaseSeverity;
  assigneeId: string | null;
  /** ISO 8601 UTC. */
  at: string;
}

/** GET /api/v1/team `data` (src/identity/team-routes.ts teamResponse, which the identity index does not export). */
export interface Team {
  account: { id: string; kind: 'person' | 'organization'; name: string | null };
  you: { id: string; role: TeamRole };
  members: TeamMember[];
}

export type TeamRole = 'admin' | 'analyst' | 'approver';

export interface TeamMember {
  id: string;
  role: TeamRole;
  status: 'active' | 'removed';
  email: string | null;
  displayName: string | null;
  joinedAt: string;
  removedAt: string | null;
}

/** The filters of the queue (GET /api/v1/cases), '' for "any". */
export interface CaseFilters {
  state: CaseState | '';
  severity: CaseSeverity | '';
  mine: boolean;
}

export const NO_CASE_FILTERS: CaseFilters = { state: '', severity: '', mine: false };
