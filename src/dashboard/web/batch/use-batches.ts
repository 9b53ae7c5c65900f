import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useSession } from '../context';
import { BATCHES_PATH, furtherAlong } from './batch-api';
import type { BatchList, BatchProgressEvent, BatchSummary } from './batch-types';
import { useBatchEvents } from './use-batch-events';

const LIST_LIMIT = 20;

/** The account's newest batches, their counts kept current by `batch_progress`; an unknown batch re-reads the list. */
export function useBatches() {
  const { api, socket } = useSession();
  const [listed, setListed] = useState<{ batches: BatchSummary[]; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const known = useRef(new Set<string>());

  const reload = useCallback(async () => {
    try {
      const body = await api.get<BatchList>(`${BATCHES_PATH}?limit=${LIST_LIMIT}`);
      known.current = new Set(body.data.map((b) => b.batch_id));
      setListed({ batches: body.data, total: body.pagination.total });
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [api]);
  useEffect(() => void reload(), [reload]);

  const onProgress = useCallback(
    (event: BatchProgressEvent) => {
      if (!known.current.has(event.batchId)) return void reload();
      setListed(
        (prev) =>
          prev && {
            ...prev,
            batches: prev.batches.map((b) => (b.batch_id === event.batchId ? furtherAlong(b, event) : b)),
          },
      );
    },
    [reload],
  );
  useBatchEvents(socket, onProgress, reload);

  return { batches: listed?.batches ?? null, total: listed?.total ?? 0, error, reload };
}
