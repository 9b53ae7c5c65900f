import { hrefFor } from '../hash-route';
import { utcMinuteOrDash } from '../markets/utc-time';
import { policyVersionName } from '../policies/policy-words';
import { finishedCount } from './batch-api';
import type { BatchSummary } from './batch-types';

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
  if (batches.length === 0)
    return (
      <p class="hint" data-testid="batches-empty">
        No batches yet. Upload a CSV file above to screen a list of targets in one request.
      </p>
    );
  return (
    <>
      {total > batches.length && (
        <p class="hint">
          The newest {batches.length} of your {total} batches.
        </p>
      )}
      <div class="table-scroll">
        <table class="wide-table" data-testid="batch-list">
          <thead>
            <tr>
              <th scope="col">Submitted</th>
              <th scope="col">Status</th>
              <th scope="col">Finished</th>
              <th scope="col">Policy</th>
              <th scope="col">Credits charged</th>
              <th scope="col">Batch</th>
            </tr>
          </thead>
          <tbody>
            {batches.map((b) => (
              <tr key={b.batch_id} data-id={b.batch_id} aria-current={b.batch_id === selectedId ? 'true' : undefined}>
                <td>{utcMinuteOrDash(b.created_at)}</td>
                <td data-field="status">{b.status}</td>
                <td data-field="finished">
                  {finishedCount(b.counts)} of {b.counts.total}
                </td>
                <td>{b.policy ? policyVersionName(b.policy) : 'standard model'}</td>
                <td>{b.credits.charged}</td>
                <td>
                  {b.batch_id === selectedId ? (
                    <span class="hint">shown above</span>
                  ) : (
                    <a href={hrefFor('batch', b.batch_id)}>
                      Show<span class="visually-hidden"> the batch of {utcMinuteOrDash(b.created_at)}</span>
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
