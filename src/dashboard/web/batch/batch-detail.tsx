import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice';
import { hrefFor } from '../hash-route';
import { utcMinuteOrDash } from '../markets/utc-time';
import { policyVersionName } from '../policies/policy-words';
import { BatchItemsSection } from './batch-items-section';
import { BatchProgress } from './batch-progress';
import { DownloadFile } from '../components/download-file';
import { batchPath } from './batch-api';
import { InvalidItems } from './invalid-items';
import { type ItemsQuery, useBatch } from './use-batch';

/** One batch, live: its progress and counts, the rows refused by validation, its items page by page, the CSV. */
export function BatchDetail({ batchId, lines }: { batchId: string; lines: number[] | undefined }) {
  const [query, setQuery] = useState<ItemsQuery>({ offset: 0, status: null });
  const { page, error } = useBatch(batchId, query);
  const batch = page?.data;
  return (
    <section aria-labelledby="batch-title" class="batch-detail" data-testid="batch-detail" data-id={batchId}>
      <h2 id="batch-title">Batch</h2>
      <p class="hint">
        <span class="mono">{batchId}</span>
        {batch && (
          <>
            {' '}
            · submitted {utcMinuteOrDash(batch.created_at)} · scored by{' '}
            {batch.policy ? `policy ${policyVersionName(batch.policy)}` : 'the standard model'}
            {batch.completed_at && ` · completed ${utcMinuteOrDash(batch.completed_at)}`}
          </>
        )}
      </p>
      <ErrorNotice error={error} />
      {!page && !error && <p role="status">Loading the batch…</p>}
      {page && batch && (
        <>
          <BatchProgress batch={batch} />
          <div class="form-actions">
            <DownloadFile
              path={`${batchPath(batchId)}/results.csv`}
              fileName={`batch-${batchId}.csv`}
              label="Download results (CSV)"
            />
            <a href={hrefFor('batch')}>Close</a>
          </div>
          <InvalidItems items={batch.invalid_items} lines={lines} />
          <BatchItemsSection page={page} query={query} onQuery={setQuery} />
        </>
      )}
    </section>
  );
}
