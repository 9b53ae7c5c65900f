import type { ViaCluster } from './cluster-types';
import { heuristicWords, shortHash } from './screen-words';

/** A finding reached through a wallet cluster: which cluster, the labelled member, and the transaction joining them. */
export function ViaClusterNote({ via }: { via: ViaCluster }) {
  return (
    <p class="via-cluster" data-testid="via-cluster">
      via cluster <strong data-field="via-cluster-id">{via.cluster_id}</strong>
      {' · '}labelled address{' '}
      <span class="mono" data-field="via-address">
        {via.address}
      </span>
      {' · '}joined by {heuristicWords(via.heuristic)} in tx{' '}
      <span class="mono" title={via.txid} data-field="via-txid">
        {shortHash(via.txid)}
      </span>
      {via.weight < 1 && ` · counted at ${Math.round(via.weight * 100)} %`}
    </p>
  );
}
