import type { ViaCluster } from './reference-data';

/** "joined by common-input ownership in tx …": the evidence of a cluster finding, in words. */
export function clusterEvidence(v: ViaCluster): string {
  const how =
    v.heuristic === 'common_input'
      ? 'spent together as inputs of one transaction (common-input ownership)'
      : v.heuristic === 'deposit_address'
        ? 'a deposit address forwarding to its hot wallet'
        : v.heuristic.replace(/_/g, ' ');
  return (
    `wallet cluster ${v.cluster_id} (${v.size} addresses${v.partial ? ' known so far' : ''}) joined it to ` +
    `${v.address} through ${v.merges.length} merge${v.merges.length === 1 ? '' : 's'}: ${how}, tx ${v.txid}`
  );
}
