import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useSession } from '../context';
import { batchPath, furtherAlong } from './batch-api';
import type { BatchItemStatus, BatchPage, BatchProgressEvent } from './batch-types';
import { useBatchEvents } from './use-batch-events';

export const ITEMS_PAGE_SIZE = 50;

export interface ItemsQuery {
  offset: number;
  status: BatchItemStatus | null;
}

const pagePath = (id: string, q: ItemsQuery) =>
  `${batchPath(id)}?offset=${q.offset}&limit=${ITEMS_PAGE_SIZE}${q.status ? `&status=${q.status}` : ''}`;

/**
 * One batch and one page of its items, followed live: each `batch_progress` of this batch moves the counts at once
 * and reads the page again (one read at a time; events that arrive during a read cause one more read after it).
 */
export function useBatch(batchId: string, query: ItemsQuery) {
  const { api, socket } = useSession();
  const [page, setPage] = useState<BatchPage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reading = useRef<{ again: boolean } | null>(null);
  const latestQuery = useRef(query);
  latestQuery.current = query;

  const read = useCallback(async () => {
    if (reading.current) {
      reading.current.again = true;
      return;
    }
    reading.current = { again: false };
    try {
      do {
        reading.current.again = false;
        const q = latestQuery.current;
        const body = await api.get<BatchPage>(pagePath(batchId, q));
        // A read answered after a newer event keeps the event's counts.
        setPage((prev) => (prev ? { ...body, data: furtherAlong(body.data, prev.data) } : body));
        setError(null);
      } while (reading.current.again);
    } catch (err) {
      setError(err);
    } finally {
      reading.current = null;
    }
  }, [api, batchId]);

  useEffect(() => void read(), [read, query.offset, query.status]);

  const onProgress = useCallback(
    (event: BatchProgressEvent) => {
      if (event.batchId !== batchId) return;
      setPage((prev) => prev && { ...prev, data: furtherAlong(prev.data, event) });
      void read();
    },
    [batchId, read],
  );
  useBatchEvents(socket, onProgress, read);

  return { page, error };
}
