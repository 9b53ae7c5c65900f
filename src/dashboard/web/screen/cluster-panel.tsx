import { ErrorNotice } from '../components/error-notice';
import { ClusterLabels } from './cluster-labels';
import { ClusterMembers } from './cluster-members';
import { ClusterMerges } from './cluster-merges';
import type { ClusterView } from './cluster-types';
import { shortAddress } from './screen-words';
import { useCluster } from './use-cluster';

function sizeWords(cluster: ClusterView): string {
  return `${cluster.size} addresses${cluster.partial ? ' (known in part: it may hold more)' : ''}`;
}

function ClusterFacts({ cluster, colour }: { cluster: ClusterView; colour: string | undefined }) {
  if (cluster.cluster_id === null)
    return (
      <p data-field="cluster-id">
        Not joined to any other address: no transaction read so far shows it sharing a wallet.
      </p>
    );
  return (
    <dl class="hit-facts">
      <dt>Cluster</dt>
      <dd data-field="cluster-id">
        {colour && <span class="swatch swatch-cluster" style={{ borderColor: colour }} title="Its halo in the graph" />}{' '}
        {cluster.cluster_id}
      </dd>
      <dt>Size</dt>
      <dd data-field="size">{sizeWords(cluster)}</dd>
    </dl>
  );
}

/**
 * The wallet cluster of the screened address, beside the crawl graph (under it on a phone): GET
 * /api/v1/clusters/:chain/:address, its labels (which member, who says so, how sure), its members and the merges
 * that built it. `colours` are the graph's halo colours by cluster id.
 */
export function ClusterPanel({
  chain,
  address,
  colours,
}: {
  chain: string;
  address: string;
  colours: Map<string, string>;
}) {
  const { cluster, loading, error, retry } = useCluster(chain, address);
  return (
    <aside class="cluster-panel" aria-labelledby="cluster-title" data-testid="cluster-panel">
      <h4 id="cluster-title">Cluster</h4>
      <p class="hint">
        The addresses transactions show to be one wallet with{' '}
        <span class="mono" title={address}>
          {shortAddress(address)}
        </span>
        .
      </p>
      {loading && <p role="status">Reading the cluster…</p>}
      <ErrorNotice error={error} />
      {error && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
      {cluster && (
        <>
          <ClusterFacts cluster={cluster} colour={cluster.cluster_id ? colours.get(cluster.cluster_id) : undefined} />
          <h5>Labels</h5>
          <ClusterLabels labels={cluster.labels} target={cluster.address} />
          {cluster.cluster_id !== null && (
            <>
              <h5>Members</h5>
              <ClusterMembers members={cluster.members} size={cluster.size} target={cluster.address} />
              <h5>How it was joined</h5>
              <ClusterMerges merges={cluster.merges} />
            </>
          )}
        </>
      )}
    </aside>
  );
}
