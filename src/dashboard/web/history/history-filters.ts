import type { HistoryEntrySummary } from './history-types';

/** The list's filters as the person set them; empty strings mean "any". Dates are ISO 8601 instants. */
export interface HistoryFilters {
  activityType: '' | HistoryEntrySummary['activityType'];
  riskLevel: '' | NonNullable<HistoryEntrySummary['riskLevel']>;
  blockchain: string;
  from: string;
  to: string;
  errorsOnly: boolean;
  q: string;
  limit: number;
}

export const NO_FILTERS: HistoryFilters = {
  activityType: '',
  riskLevel: '',
  blockchain: '',
  from: '',
  to: '',
  errorsOnly: false,
  q: '',
  limit: 20,
};
