import { useRef } from 'preact/hooks';
import { BatchDetail } from '../batch/batch-detail';
import { BatchList } from '../batch/batch-list';
import { BatchUploadForm } from '../batch/batch-upload-form';
import { useBatches } from '../batch/use-batches';
import { ErrorNotice } from '../components/error-notice';
import { hrefFor } from '../hash-route';
import { usePolicies } from '../policies/use-policies';
import type { PanelProps } from './panel-props';

/**
 * Batch screening (#/batch) and one batch (#/batch/<id>): upload a CSV of targets, follow its progress live, read the
 * items and download the results.
 */
export function BatchPanel({ route }: PanelProps) {
  const policies = usePolicies();
  const { batches, total, error, reload } = useBatches();
  // Batch id → the file line of each item, for the batches this tab uploaded (the API knows items by index only).
  const lines = useRef(new Map<string, number[]>());
  const selectedId = route[0] ?? null;

  return (
    <>
      <section aria-labelledby="batch-upload-title">
        <h1 id="batch-upload-title">Screen a list of targets</h1>
        <BatchUploadForm
          policies={policies}
          onSubmitted={(batch, fileLines) => {
            lines.current.set(batch.batch_id, fileLines);
            window.location.hash = hrefFor('batch', batch.batch_id);
            void reload();
          }}
        />
      </section>
      {selectedId && <BatchDetail key={selectedId} batchId={selectedId} lines={lines.current.get(selectedId)} />}
      <section aria-labelledby="batches-title" aria-busy={batches || error ? 'false' : 'true'}>
        <h2 id="batches-title">Recent batches</h2>
        <ErrorNotice error={error} />
        {!batches && !error && <p role="status">Loading your batches…</p>}
        {batches && <BatchList batches={batches} total={total} selectedId={selectedId} />}
      </section>
    </>
  );
}
