import type { BatchCounts, BatchView } from './batch-types';

export const BATCH_PATH = '/api/v1/kyt/batch';
export const BATCHES_PATH = '/api/v1/kyt/batches';
export const batchPath = (id: string): string => `${BATCH_PATH}/${encodeURIComponent(id)}`;

/** Items that have an outcome: everything but those still queued. */
export const finishedCount = (counts: BatchCounts): number => counts.total - counts.queued;

type Progress = Pick<BatchView, 'status' | 'counts'> & { credits?: BatchView['credits'] };

/**
 * The further along of two reports on one batch. Socket events and reads can arrive in any order; items only ever
 * finish and a completed batch stays completed, so the report with more finished items is the newer.
 */
export function furtherAlong<T extends Progress>(current: T, report: Progress): T {
  if (current.status === 'completed' && report.status !== 'completed') return current;
  if (report.status !== 'completed' && finishedCount(report.counts) < finishedCount(current.counts)) return current;
  return {
    ...current,
    status: report.status,
    counts: report.counts,
    ...(report.credits ? { credits: report.credits } : {}),
  };
}
