/** What other parts use of cases: the routes' answer shapes (types only: the dashboard renders them). */
export type { caseDetailResponse, caseListResponse, caseResponse, caseSchema } from './case-views';
