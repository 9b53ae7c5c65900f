import { type Column, DataTable } from '../components/data-table';
import type { JobCluster } from './cluster-types';
import { kindWords, nodeKind } from './graph-style';
import type { GraphEdge, GraphNode } from './job-types';
import { stopWords, usd } from './screen-words';

const clusterWords = (c: JobCluster | undefined): string =>
  c ? `${c.cluster_id} (${c.size} addresses${c.partial ? ', known in part' : ''})` : '—';

const EDGE_COLUMNS: Column<GraphEdge>[] = [
  { header: 'From', cell: (e) => e.from, class: 'mono' },
  { header: 'To', cell: (e) => e.to, class: 'mono' },
  { header: 'Amount', cell: (e) => e.amount ?? '—' },
  { header: 'USD', cell: (e) => usd(e.usd) },
  { header: 'Hop', cell: (e) => e.hop },
  { header: 'Transactions', cell: (e) => (e.txids ?? []).join(', ') || '—', class: 'mono' },
];

const nodeColumns = (clusterOf: Map<string, JobCluster>): Column<GraphNode>[] => [
  { header: 'Address', cell: (n) => n.address, class: 'mono' },
  { header: 'Hop', cell: (n) => n.hop },
  { header: 'Role', cell: (n) => n.role },
  { header: 'Kind', cell: (n) => kindWords(nodeKind(n)) },
  { header: 'Labels', cell: (n) => [...new Set(n.labels)].join(', ') || '—' },
  { header: 'Crawl', cell: (n) => stopWords(n.stop) || '—' },
  { header: 'Wallet cluster', cell: (n) => clusterWords(clusterOf.get(n.address)) },
];

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
      <DataTable
        class="wide-table"
        testId="graph-edges"
        caption="Transfers (from → to)"
        columns={EDGE_COLUMNS}
        rows={edges}
        // Two transfers may join the same pair of addresses: a transfer's place is its only identity.
        rowKey={(_e, i) => i}
      />
      <DataTable
        class="wide-table"
        testId="graph-nodes"
        caption="Addresses"
        columns={nodeColumns(clusterOf)}
        rows={nodes}
        rowKey={(n) => n.address}
      />
    </details>
  );
}
