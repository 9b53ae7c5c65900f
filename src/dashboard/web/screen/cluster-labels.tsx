import type { ClusterLabel } from './cluster-types';
import { shortAddress, sourceWords } from './screen-words';

/** What the reference data (and the account's own labels) say about the cluster's members: one card per label. */
export function ClusterLabels({ labels, target }: { labels: ClusterLabel[]; target: string }) {
  if (labels.length === 0) return <p class="hint">No list labels any member of it.</p>;
  return (
    <ul class="cluster-list" data-testid="cluster-labels">
      {labels.map((l, i) => (
        <li key={i} class="cluster-label">
          <strong data-field="category">{l.category.replace(/_/g, ' ')}</strong>
          {l.name && (
            <>
              {' '}
              <span data-field="name">“{l.name}”</span>
            </>
          )}
          <span class="cluster-line hint">
            on{' '}
            <span class="mono" title={l.address} data-field="member">
              {shortAddress(l.address)}
            </span>
            {l.address === target && ' (the screened address)'} ·{' '}
            <span data-field="source">{sourceWords(l.source)}</span> · confidence{' '}
            <span data-field="confidence">{l.confidence}</span> of 100
          </span>
        </li>
      ))}
    </ul>
  );
}
