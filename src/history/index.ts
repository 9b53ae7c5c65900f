/** What other features use of the account's history: the store that records a job's or an x402 report's entry. */
export { createHistoryStore, type HistoryStore } from './history-store';
/** Answer shapes the dashboard renders (types only: nothing of the server enters the browser bundle). */
export type { historyEntryDetailSchema, historyEntrySummarySchema } from './history-views';
export type { historyListResponse } from './history-routes';
/** The row a feature records (a screening job's is built by src/screening/job-history-entry.ts). */
export type { HistoryEntry } from './history-store';
