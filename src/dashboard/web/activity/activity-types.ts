/**
 * GET /api/v1/activity as the dashboard reads it, derived from the schemas the routes answer with
 * (src/history/). Type-only imports: esbuild erases them, so no server code is bundled.
 */
import type { z } from 'zod';
import type { activityListResponse } from '../../../history';
import type { activityDetailSchema, activityListItemSchema } from '../../../history';

/** A list item; also the `activity_recorded` socket event (its trigger builds the same shape). */
export type ActivityItem = z.output<typeof activityListItemSchema>;

/** GET /api/v1/activity/:id `data`: the item plus its payloads and the caller's metadata. */
export type ActivityDetail = z.output<typeof activityDetailSchema>;

export type ActivityList = z.output<typeof activityListResponse>;
export type Pagination = ActivityList['pagination'];
