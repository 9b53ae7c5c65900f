import cytoscape from 'cytoscape';
import { useEffect, useRef } from 'preact/hooks';
import type { JobCluster } from './cluster-types';
import { clusterColours, GRAPH_STYLE, NODE_KINDS, nodeKind } from './graph-style';
import { GraphTables } from './graph-tables';
import type { GraphEdge, GraphNode } from './job-types';
import { shortAddress } from './screen-words';

const FIT_PADDING = 24;

/** An edge between two addresses (the API's edges may have no address at one end). */
type DrawnEdge = GraphEdge & { from: string; to: string };

function elements(
  nodes: GraphNode[],
  edges: GraphEdge[],
  clusters: readonly JobCluster[],
  showAmounts: boolean,
): cytoscape.ElementDefinition[] {
  const present = new Set(nodes.map((n) => n.address));
  const colours = clusterColours(clusters);
  const clusterOf = new Map(clusters.map((c) => [c.address, c.cluster_id]));
  return [
    ...nodes.map((n) => ({
      group: 'nodes' as const,
      data: {
        id: n.address,
        label: n.hop === 0 ? `${partyWords(n.role)}\n${shortAddress(n.address)}` : shortAddress(n.address),
        // The halo colour of the address's wallet cluster (GRAPH_STYLE's node[cluster]); absent: a cluster of one.
        ...(clusterOf.has(n.address) ? { cluster: colours.get(clusterOf.get(n.address)!) } : {}),
      },
      classes: [nodeKind(n), n.hop === 0 ? 'target' : ''].join(' ').trim(),
    })),
    // An edge to an address the graph does not list would make cytoscape throw: such edges stay in the table only.
    ...edges
      .filter((e): e is DrawnEdge => e.from !== null && e.to !== null && present.has(e.from) && present.has(e.to))
      .map((e, i) => ({
        group: 'edges' as const,
        data: { id: `e${i}`, source: e.from, target: e.to, label: showAmounts ? (e.amount ?? '') : '' },
      })),
  ];
}

/** A KYA has one target; a KYT screens every party of the transfer (sender, recipient…), each named by its role. */
const partyWords = (role: string): string =>
  role === 'target' ? 'Target' : role.charAt(0).toUpperCase() + role.slice(1);

function rootsOption(nodes: GraphNode[]): { roots?: string } {
  const roots = nodes.filter((n) => n.hop === 0).map((n) => `[id = "${n.address}"]`);
  return roots.length ? { roots: roots.join(', ') } : {};
}

const NO_CLUSTERS: JobCluster[] = [];

/** The legend's line for each wallet cluster drawn: its halo colour, id and size. */
function clusterLegend(nodes: GraphNode[], clusters: readonly JobCluster[]) {
  const drawn = new Set(nodes.map((n) => n.address));
  const colours = clusterColours(clusters);
  const shown = new Map<string, JobCluster>();
  for (const c of clusters) if (drawn.has(c.address) && !shown.has(c.cluster_id)) shown.set(c.cluster_id, c);
  return [...shown.values()].map((c) => (
    <li key={`cluster-${c.cluster_id}`} data-testid="graph-legend-cluster">
      <span class="swatch swatch-cluster" style={{ borderColor: colours.get(c.cluster_id) }} aria-hidden="true" />{' '}
      Wallet cluster {c.cluster_id} ({c.size} addresses{c.partial ? ', known in part' : ''}): coloured halo
    </li>
  ));
}

/**
 * The exposure crawl drawn as a graph (addresses, transfers with their direction) with a legend in
 * words, and the same nodes and edges as tables for anyone who cannot use the drawing. Addresses of a wallet
 * cluster (`clusters` of /fullresponse) wear a halo in their cluster's colour.
 */
export function CrawlGraph({
  nodes,
  edges,
  clusters = NO_CLUSTERS,
}: {
  nodes: GraphNode[];
  edges: GraphEdge[];
  clusters?: JobCluster[];
}) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return undefined;
    // Hops run left to right on a wide screen and top to bottom on a phone, so the graph fills its box.
    const wide = element.clientWidth > element.clientHeight * 1.2;
    const cy = cytoscape({
      container: element,
      // On a narrow screen the amounts would cover the addresses; they stay in the transfers table.
      elements: elements(nodes, edges, clusters, wide),
      style: GRAPH_STYLE as cytoscape.StylesheetJson,
      // Rings by hop around the screened parties, whichever way the money flowed.
      layout: {
        name: 'breadthfirst',
        directed: false,
        ...rootsOption(nodes),
        spacingFactor: 1.1,
        padding: FIT_PADDING,
        // Laid out top to bottom in a box of the container's size turned by 90°, then turned back.
        ...(wide ? { boundingBox: { x1: 0, y1: 0, w: element.clientHeight, h: element.clientWidth } } : {}),
        transform: (_node, position) => (wide ? { x: position.y, y: position.x } : position),
      },
      minZoom: 0.2,
      // A small graph is not blown up to fill the box: labels stay at reading size.
      maxZoom: 1.6,
      wheelSensitivity: 0.3,
    });
    cy.fit(undefined, FIT_PADDING);
    element.dataset.nodes = String(cy.nodes().length);
    element.dataset.edges = String(cy.edges().length);
    element.dataset.clustered = String(cy.nodes('[cluster]').length);
    const refit = new ResizeObserver(() => {
      cy.resize();
      cy.fit(undefined, FIT_PADDING);
    });
    refit.observe(element);
    return () => {
      refit.disconnect();
      cy.destroy();
    };
  }, [nodes, edges, clusters]);

  const present = new Set(nodes.map((n) => nodeKind(n)));
  return (
    <div class="crawl-graph">
      <div
        ref={container}
        class="graph"
        role="img"
        aria-label={
          `Crawl graph: ${nodes.length} addresses and ${edges.length} transfers. ` +
          `The same addresses and transfers are listed in the tables below.`
        }
        data-testid="crawl-graph"
      />
      <ul class="graph-legend" aria-label="Legend">
        <li>
          <span class="swatch swatch-target" aria-hidden="true" /> Screened party (diamond, dark ring)
        </li>
        {NODE_KINDS.filter((k) => present.has(k.kind)).map((k) => (
          <li key={k.kind}>
            <span class="swatch" style={{ background: k.colour }} aria-hidden="true" /> {k.words}
          </li>
        ))}
        {clusterLegend(nodes, clusters)}
        <li>
          <span aria-hidden="true">→</span> Transfer, in the direction the funds moved
        </li>
      </ul>
      <GraphTables nodes={nodes} edges={edges} clusters={clusters} />
    </div>
  );
}
