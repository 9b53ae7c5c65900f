/** GET /api/v1/activity items (also the `activity_recorded` socket event) and the detail view. */
export interface ActivityItem {
  id: string;
  requestId: string | null;
  activityType: 'kyt' | 'kya' | 'kye';
  statusCode: number | null;
  isError: boolean;
  blockchain: string | null;
  transactionHash: string | null;
  address: string | null;
  entityId: string | null;
  entityName: string | null;
  riskLevel: string | null;
  riskScore: number | null;
  responseSummary: Record<string, unknown> | null;
  source: string | null;
  createdAt: string;
}

export interface ActivityDetail extends ActivityItem {
  responseId: string | null;
  errorMessage: string | null;
  requestPayload: unknown;
  responsePayload: unknown;
  metadata: unknown;
  clientAppId: string | null;
  clientAppName: string | null;
}

export interface Pagination {
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

/** The list's filters as the person set them; empty strings mean "any". Dates are ISO 8601 instants. */
export interface ActivityFilters {
  activityType: '' | 'kyt' | 'kya' | 'kye';
  riskLevel: '' | 'low' | 'medium' | 'high' | 'critical';
  blockchain: string;
  from: string;
  to: string;
  errorsOnly: boolean;
  q: string;
  limit: number;
}

export const NO_FILTERS: ActivityFilters = { activityType: '', riskLevel: '', blockchain: '', from: '', to: '', errorsOnly: false, q: '', limit: 20 };
