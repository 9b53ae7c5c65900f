/**
 * GET /api/v1/activity as the dashboard reads it, derived from the schemas the routes answer with
 * (src/history/). Type-only imports: esbuild erases them, so no server code is bundled.
 */
import type { z } from 'zod';
import type { historyListResponse } from '../../../history';
import type { historyEntryDetailSchema, historyEntrySummarySchema } from '../../../history';

/** An entry's summary; also the `activity_recorded` socket event (its trigger builds the same shape). */
export type HistoryEntrySummary = z.output<typeof historyEntrySummarySchema>;

/** GET /api/v1/activity/:id `data`: the item plus its payloads and the caller's metadata. */
export type HistoryEntryDetail = z.output<typeof historyEntryDetailSchema>;

export type HistoryList = z.output<typeof historyListResponse>;
export type Pagination = HistoryList['pagination'];
