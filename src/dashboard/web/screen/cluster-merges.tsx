import type { ClusterMerge } from './cluster-types';
import { heuristicWords, mergeJoiner, shortAddress, shortHash } from './screen-words';

const MERGES_SHOWN = 20;

const dateOf = (iso: string): string =>
  new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** The merges that built the cluster, oldest first: the heuristic in words, the two addresses and the transaction. */
export function ClusterMerges({ merges }: { merges: ClusterMerge[] }) {
  const shown = merges.slice(0, MERGES_SHOWN);
  return (
    <>
      <ol class="cluster-list" data-testid="cluster-merges">
        {shown.map((m, i) => (
          <li key={i} class="cluster-merge">
            <strong data-field="heuristic">{heuristicWords(m.heuristic)}</strong>
            <span class="cluster-line">
              <span class="mono" title={m.a}>
                {shortAddress(m.a)}
              </span>{' '}
              {mergeJoiner(m.heuristic)}{' '}
              <span class="mono" title={m.b}>
                {shortAddress(m.b)}
              </span>
            </span>
            <span class="cluster-line hint">
              tx{' '}
              <span class="mono" title={m.txid} data-field="txid">
                {shortHash(m.txid)}
              </span>{' '}
              · {dateOf(m.merged_at)}
            </span>
          </li>
        ))}
      </ol>
      {merges.length > shown.length && <p class="hint">+{merges.length - shown.length} more merges</p>}
    </>
  );
}
