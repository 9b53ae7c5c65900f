import type { CaseFileGraph } from './case-file-material';

export interface PlacedNode {
  /** `N1`, `N2`, …: how the picture and the node table name it. */
  id: string;
  address: string;
  role: string;
  hop: number;
  labels: string[];
  /** The case's subject (its address; for a transaction case, the transaction's parties at hop 0). */
  subject: boolean;
  /** Column: 0 the screened parties, negative the sources at that hop, positive the destinations. */
  column: number;
  x: number;
  y: number;
}

export interface PlacedEdge {
  from: number;
  to: number;
  asset: string;
  amount: string;
  usd: number | null;
}

export interface GraphLayout {
  width: number;
  height: number;
  /** The columns drawn, left to right: where each one starts and how wide it is. */
  columns: { column: number; left: number; width: number }[];
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  /** Nodes and edges of the answer left out of the picture. */
  omittedNodes: number;
  omittedEdges: number;
}

export interface LayoutOptions {
  width: number;
  maxNodes: number;
  /** Vertical distance between two nodes of a column (the middle one's names sit under its nodes: twice that). */
  rowSpacing: number;
  /** Room above the first row (column titles) and below the last. */
  top: number;
  bottom: number;
}

const sideOf = (role: string): -1 | 1 => (/\bsource\b/.test(role) ? -1 : 1);
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * A layered picture of a crawl graph: one column per hop, the sources a hop in to the left of the screened parties,
 * the destinations to the right, so money reads left to right. At most `maxNodes` nodes: the screened parties, then
 * the labelled ones, then the nearest, then the largest share; edges only between nodes drawn. Deterministic: the
 * same graph lays out the same way.
 */
export function layoutGraph(graph: CaseFileGraph, subject: string, options: LayoutOptions): GraphLayout {
  const byAddress = new Map<string, CaseFileGraph['nodes'][number]>();
  for (const n of graph.nodes) if (!byAddress.has(n.address)) byAddress.set(n.address, n);
  const isSubject = (n: { address: string; hop: number }) => same(n.address, subject);
  const hasSubjectNode = [...byAddress.values()].some(isSubject);
  const marked = (n: { address: string; hop: number }) => (hasSubjectNode ? isSubject(n) : n.hop === 0);
  const rank = (n: CaseFileGraph['nodes'][number]) => [
    marked(n) ? 0 : 1,
    n.hop === 0 ? 0 : 1,
    n.labels.length > 0 ? 0 : 1,
    n.hop,
    -(n.share ?? 0),
  ];
  const ordered = [...byAddress.values()].sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return (ra[i] as number) - (rb[i] as number);
    return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
  });
  const kept = ordered.slice(0, options.maxNodes);

  const columnOf = (n: CaseFileGraph['nodes'][number]) => (n.hop === 0 ? 0 : sideOf(n.role) * n.hop);
  const columnKeys = [...new Set(kept.map(columnOf))].sort((a, b) => a - b);
  const columnWidth = options.width / Math.max(1, columnKeys.length);
  const columns = columnKeys.map((column, i) => ({ column, left: Math.round(i * columnWidth), width: columnWidth }));
  const spacingOf = (column: number) => (column === 0 ? 2 * options.rowSpacing : options.rowSpacing);
  const rowsIn = new Map<number, number>();
  for (const n of kept) rowsIn.set(columnOf(n), (rowsIn.get(columnOf(n)) ?? 0) + 1);
  const spanOf = (column: number) => ((rowsIn.get(column) ?? 1) - 1) * spacingOf(column);
  const tallest = Math.max(0, ...columnKeys.map(spanOf));
  // Sources sit at the right of their column (their names to their left), destinations at the left, the screened
  // parties in the middle: every name is on the side no transfer leaves from.
  const xOf = (c: (typeof columns)[number]) =>
    c.column < 0 ? c.left + c.width - 12 : c.column > 0 ? c.left + 10 : c.left + c.width / 2;
  const placed = new Map<number, number>();
  const nodes: PlacedNode[] = kept.map((n, i) => {
    const column = columnOf(n);
    const row = placed.get(column) ?? 0;
    placed.set(column, row + 1);
    const c = columns.find((x) => x.column === column) as (typeof columns)[number];
    return {
      id: `N${i + 1}`,
      address: n.address,
      role: n.role,
      hop: n.hop,
      labels: n.labels,
      subject: marked(n),
      column,
      x: Math.round(xOf(c)),
      // Each column centred on the tallest one.
      y: Math.round(options.top + (tallest - spanOf(column)) / 2 + row * spacingOf(column)),
    };
  });

  const index = new Map(nodes.map((n, i) => [n.address, i]));
  const edges: PlacedEdge[] = [];
  for (const e of graph.edges) {
    const from = e.from === null ? undefined : index.get(e.from);
    const to = e.to === null ? undefined : index.get(e.to);
    if (from === undefined || to === undefined || from === to) continue;
    edges.push({ from, to, asset: e.asset, amount: e.amount, usd: e.usd });
  }
  return {
    width: options.width,
    height: options.top + tallest + options.bottom,
    columns,
    nodes,
    edges,
    omittedNodes: byAddress.size - kept.length,
    omittedEdges: graph.edges.length - edges.length,
  };
}
