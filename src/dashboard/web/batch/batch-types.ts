/**
 * The batch API as the dashboard reads it, derived from the schemas the routes answer with
 * (src/batches/batch-views.ts).
 * Type-only imports: esbuild erases them, so no server code is bundled.
 */
import type { z } from 'zod';
import type { batchListResponse, batchResponse, batchWithItemsResponse } from '../../../batches';

/** POST /api/v1/kyt/batch `data`: the batch as accepted, with the items refused by validation. */
export type BatchView = z.output<typeof batchResponse>['data'];
/** GET /api/v1/kyt/batch/:id: the batch and one page of its items. */
type ItemsResponse = z.output<typeof batchWithItemsResponse>;
/** The statuses of an item (the schema's enum is built from a list the type system sees as strings). */
export type BatchItemStatus = 'invalid' | 'refused' | 'queued' | 'completed' | 'failed';
export type BatchItem = Omit<ItemsResponse['data']['items'][number], 'status'> & { status: BatchItemStatus };
export type BatchPage = Omit<ItemsResponse, 'data'> & {
  data: Omit<ItemsResponse['data'], 'items'> & { items: BatchItem[] };
};
export type BatchCounts = BatchView['counts'];
export type PolicyOfBatch = BatchView['policy'];
export type InvalidItem = BatchView['invalid_items'][number];
/** GET /api/v1/kyt/batches: the newest batches, without their invalid items. */
export type BatchList = z.output<typeof batchListResponse>;
export type BatchSummary = BatchList['data'][number];

/** POST /api/v1/kyt/batch item, as read from the uploaded file. */
export interface BatchTarget {
  address?: string;
  txid?: string;
  chain: string;
  reference_id?: string;
}

/** `batch_progress` on the socket (src/batches/functions/100_batches.sql): counts as they are now. */
export interface BatchProgressEvent {
  batchId: string;
  status: BatchView['status'];
  counts: BatchCounts;
  credits?: BatchView['credits'];
}

export const ITEM_STATUSES: BatchItemStatus[] = ['invalid', 'refused', 'queued', 'completed', 'failed'];
