import type { BatchItemStatus, BatchView } from './batch-types';

export const ITEM_STATUS_WORDS: Record<BatchItemStatus, string> = {
  invalid: 'invalid',
  refused: 'refused: not enough credits',
  queued: 'queued',
  completed: 'completed',
  failed: 'failed',
};

export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "Running: 12 of 40 items finished" or, once done, what the batch came to. */
export function batchStatusWords(batch: Pick<BatchView, 'status' | 'counts'>): string {
  const c = batch.counts;
  if (batch.status === 'completed')
    return (
      `Completed: ${plural(c.completed, 'item')} screened, ${c.failed} failed, ` +
      `${c.refused} refused for lack of credits, ${c.invalid} invalid.`
    );
  return `Running: ${plural(c.total - c.queued, 'item')} of ${c.total.toLocaleString('en-US')} finished…`;
}
