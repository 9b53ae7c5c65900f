import type { JobCluster } from './cluster-types';
import { kindWords, nodeKind } from './graph-style';
import type { GraphEdge, GraphNode } from './job-types';
import { stopWords, usd } from './screen-words';

const clusterWords = (c: JobCluster | undefined): string =>
  c ? `${c.cluster_id} (${c.size} addresses${c.partial ? ', known in part' : ''})` : '—';

/** The crawl graph as text: every address and every transfer, for screen readers and for copying. */
export function GraphTables({
  nodes,
  edges,
  clusters,
}: {
  nodes: GraphNode[];
  edges: GraphEdge[];
  clusters: readonly JobCluster[];
}) {
  const clusterOf = new Map(clusters.map((c) => [c.address, c]));
  return (
    <details class="graph-tables">
      <summary>
        The graph as tables: {nodes.length} addresses, {edges.length} transfers
      </summary>
      <div class="table-scroll">
        <table class="wide-table" data-testid="graph-edges">
          <caption>Transfers (from → to)</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">Amount</th>
              <th scope="col">USD</th>
              <th scope="col">Hop</th>
              <th scope="col">Transactions</th>
            </tr>
          </thead>
          <tbody>
            {edges.map((e, i) => (
              <tr key={i}>
                <td class="mono">{e.from}</td>
                <td class="mono">{e.to}</td>
                <td>{e.amount ?? '—'}</td>
                <td>{usd(e.usd)}</td>
                <td>{e.hop}</td>
                <td class="mono">{(e.txids ?? []).join(', ') || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div class="table-scroll">
        <table class="wide-table" data-testid="graph-nodes">
          <caption>Addresses</caption>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Hop</th>
              <th scope="col">Role</th>
              <th scope="col">Kind</th>
              <th scope="col">Labels</th>
              <th scope="col">Crawl</th>
              <th scope="col">Wallet cluster</th>
            </tr>
          </thead>
          <tbody>
            {nodes.map((n) => (
              <tr key={n.address}>
                <td class="mono">{n.address}</td>
                <td>{n.hop}</td>
                <td>{n.role}</td>
                <td>{kindWords(nodeKind(n))}</td>
                <td>{[...new Set(n.labels)].join(', ') || '—'}</td>
                <td>{stopWords(n.stop) || '—'}</td>
                <td>{clusterWords(clusterOf.get(n.address))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
