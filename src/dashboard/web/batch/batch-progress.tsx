import { finishedCount } from './batch-api';
import type { BatchView } from './batch-types';
import { batchStatusWords } from './batch-words';

const FIGURES: { key: keyof BatchView['counts']; words: string }[] = [
  { key: 'total', words: 'Items' },
  { key: 'completed', words: 'Completed' },
  { key: 'queued', words: 'Running' },
  { key: 'failed', words: 'Failed' },
  { key: 'refused', words: 'Refused (credits)' },
  { key: 'invalid', words: 'Invalid' },
];

/** The batch's status in words, a progress bar of finished items, the counts by status and its credits. */
export function BatchProgress({ batch }: { batch: Pick<BatchView, 'status' | 'counts' | 'credits'> }) {
  const { counts } = batch;
  const finished = finishedCount(counts);
  const percent = counts.total ? Math.round((finished / counts.total) * 100) : 100;
  return (
    <div class="batch-progress">
      <p
        class={`job-status job-status-${batch.status === 'completed' ? 'completed' : 'queued'}`}
        role="status"
        data-testid="batch-status"
      >
        {batchStatusWords(batch)}
      </p>
      <label for="batch-progress-bar" class="progress-label">
        Progress: {finished.toLocaleString('en-US')} of {counts.total.toLocaleString('en-US')} items finished ({percent}{' '}
        %)
      </label>
      <progress id="batch-progress-bar" max={counts.total || 1} value={finished} data-testid="batch-progress-bar">
        {percent} %
      </progress>
      <dl class="balance-figures batch-counts" data-testid="batch-counts">
        {FIGURES.map((f) => (
          <div key={f.key}>
            <dt>{f.words}</dt>
            <dd data-count={f.key}>{counts[f.key].toLocaleString('en-US')}</dd>
          </div>
        ))}
        <div>
          <dt>Credits charged</dt>
          <dd data-count="charged">{batch.credits.charged.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>Credits held</dt>
          <dd data-count="held">{batch.credits.held.toLocaleString('en-US')}</dd>
        </div>
      </dl>
    </div>
  );
}
