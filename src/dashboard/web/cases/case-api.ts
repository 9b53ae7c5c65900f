import type { CaseFilters } from './case-types';

/** The paths of the cases API (src/cases/cases-routes.ts) and of the team it reads names from. */
export const CASES_PATH = '/api/v1/cases';
export const TEAM_PATH = '/api/v1/team';

/** How many cases a page of the queue shows. */
export const QUEUE_PAGE_SIZE = 20;

export const casePath = (id: string): string => `${CASES_PATH}/${encodeURIComponent(id)}`;

/** The member actions, by the path segment of each (`attach_job` is not offered by the dashboard). */
export type CaseActionSegment = 'assign' | 'comment' | 'propose' | 'approve' | 'reject' | 'reopen';

export const caseActionPath = (id: string, action: CaseActionSegment): string => `${casePath(id)}/${action}`;

export function queuePath(filters: CaseFilters, offset: number): string {
  const query = new URLSearchParams();
  if (filters.state) query.set('state', filters.state);
  if (filters.severity) query.set('severity', filters.severity);
  if (filters.mine) query.set('assignee', 'me');
  query.set('limit', String(QUEUE_PAGE_SIZE));
  query.set('offset', String(offset));
  return `${CASES_PATH}?${query.toString()}`;
}
