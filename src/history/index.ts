/** What other features use of the user's activity history: the store that records a screening or a report. */
export type { HistoryStore } from './history-store';
/** Answer shapes the dashboard renders (types only: nothing of the server enters the browser bundle). */
export type { activityDetailSchema, activityListItemSchema } from './history-views';
export type { activityListResponse } from './history-routes';
/** The row a feature records (a screening job's is built by src/screening/screening-history-entry.ts). */
export type { ActivityEntry } from './history-store';
