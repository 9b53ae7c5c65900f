import type { ActivityItem } from './activity-types';

/** The list's filters as the person set them; empty strings mean "any". Dates are ISO 8601 instants. */
export interface ActivityFilters {
  activityType: '' | ActivityItem['activityType'];
  riskLevel: '' | NonNullable<ActivityItem['riskLevel']>;
  blockchain: string;
  from: string;
  to: string;
  errorsOnly: boolean;
  q: string;
  limit: number;
}

export const NO_FILTERS: ActivityFilters = {
  activityType: '',
  riskLevel: '',
  blockchain: '',
  from: '',
  to: '',
  errorsOnly: false,
  q: '',
  limit: 20,
};
