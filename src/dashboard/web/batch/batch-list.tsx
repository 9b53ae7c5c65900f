import { type Column, DataTable } from '../components/data-table';
import { hrefFor } from '../hash-route';
import { utcMinuteOrDash } from '../markets/utc-time';
import { policyVersionName } from '../policies/policy-words';
import { finishedCount } from './batch-api';
import type { BatchSummary } from './batch-types';

const columnsFor = (selectedId: string | null): Column<BatchSummary>[] => [
  { header: 'Submitted', cell: (b) => utcMinuteOrDash(b.created_at) },
  { header: 'Status', field: 'status', cell: (b) => b.status },
  {
    header: 'Finished',
    field: 'finished',
    cell: (b) => (
      <>
        {finishedCount(b.counts)} of {b.counts.total}
      </>
    ),
  },
  { header: 'Policy', cell: (b) => (b.policy ? policyVersionName(b.policy) : 'standard model') },
  { header: 'Credits charged', cell: (b) => b.credits.charged },
  {
    header: 'Batch',
    cell: (b) =>
      b.batch_id === selectedId ? (
        <span class="hint">shown above</span>
      ) : (
        <a href={hrefFor('batch', b.batch_id)}>
          Show<span class="visually-hidden"> the batch of {utcMinuteOrDash(b.created_at)}</span>
        </a>
      ),
  },
];

/** The account's newest batches: when, status and progress (kept live), policy, charge, and a link to each. */
export function BatchList({
  batches,
  total,
  selectedId,
}: {
  batches: BatchSummary[];
  total: number;
  selectedId: string | null;
}) {
  return (
    <>
      {batches.length > 0 && total > batches.length && (
        <p class="hint">
          The newest {batches.length} of your {total} batches.
        </p>
      )}
      <DataTable
        class="wide-table"
        testId="batch-list"
        columns={columnsFor(selectedId)}
        rows={batches}
        rowKey={(b) => b.batch_id}
        rowAttributes={(b) => ({ 'data-id': b.batch_id })}
        isSelected={(b) => b.batch_id === selectedId}
        empty="No batches yet. Upload a CSV file above to screen a list of targets in one request."
        emptyTestId="batches-empty"
      />
    </>
  );
}
