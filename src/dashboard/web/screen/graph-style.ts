import type { GraphNode } from './job-types';

/**
 * The crawl graph's node kinds, from what the reference data says about each address (its labels), worst first.
 * Category severities follow data/risk/risk_categories.json (severe/high → high risk, medium → medium,
 * the known services → service).
 */
export const NODE_KINDS = [
  { kind: 'sanctioned', colour: '#b42318', words: 'Sanctioned' },
  { kind: 'high', colour: '#e04f16', words: 'High-risk label (mixer, scam, theft, frozen funds…)' },
  { kind: 'medium', colour: '#eaaa08', words: 'Medium-risk label (gambling, seized funds…)' },
  { kind: 'service', colour: '#2e90fa', words: 'Known service (exchange, bridge, DeFi…)' },
  { kind: 'unlabelled', colour: '#98a2b3', words: 'No label: unknown, not clean' },
] as const;

export type NodeKind = (typeof NODE_KINDS)[number]['kind'];

const HIGH = new Set([
  'darknet_market',
  'ransomware',
  'terrorism_financing',
  'stolen_funds',
  'hack_exploit',
  'phishing',
  'scam',
  'mixer',
  'ponzi',
  'malware',
  'fraud_shop',
  'high_risk_exchange',
  'stablecoin_blocked',
  'sanctions_related',
]);
const MEDIUM = new Set(['seized_funds', 'gambling', 'compromised', 'regulatory_action']);

export function nodeKind(node: GraphNode): NodeKind {
  const labels = node.labels ?? [];
  if (node.stop === 'sanctioned' || labels.includes('sanctions')) return 'sanctioned';
  // Stablecoin freezes come as "<token> blacklisted" (current) or "<token> removed" (released).
  if (labels.some((l) => HIGH.has(l) || / blacklisted$/.test(l))) return 'high';
  if (labels.some((l) => MEDIUM.has(l) || / removed$/.test(l))) return 'medium';
  if (labels.length > 0) return 'service';
  return 'unlabelled';
}

export const kindWords = (kind: NodeKind): string => NODE_KINDS.find((k) => k.kind === kind)?.words ?? kind;

/** Halo colours for wallet clusters, apart from the kind colours (a fill) and the target's dark ring (a border). */
const CLUSTER_COLOURS = ['#7a5af8', '#0e9384', '#dd2590', '#4ca30d', '#444ce7', '#93370d', '#0086c9'] as const;

/** One colour per cluster id, in the order /fullresponse lists the clusters (more clusters than colours reuse them). */
export function clusterColours(clusters: readonly { cluster_id: string }[]): Map<string, string> {
  const colours = new Map<string, string>();
  for (const { cluster_id } of clusters)
    if (!colours.has(cluster_id)) colours.set(cluster_id, CLUSTER_COLOURS[colours.size % CLUSTER_COLOURS.length]!);
  return colours;
}

/**
 * Cytoscape's stylesheet: colour by kind, the target larger with a thick dark ring, a halo in its cluster's colour
 * round each address of a wallet cluster, arrows for direction.
 */
export const GRAPH_STYLE = [
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      'font-size': 12,
      'text-valign': 'bottom',
      'text-margin-y': 4,
      'text-wrap': 'wrap',
      color: '#17202a',
      'text-background-color': '#ffffff',
      'text-background-opacity': 0.85,
      'text-background-padding': '1px',
      width: 28,
      height: 28,
      'border-width': 1,
      'border-color': '#ffffff',
    },
  },
  ...NODE_KINDS.map(({ kind, colour }) => ({ selector: `node.${kind}`, style: { 'background-color': colour } })),
  {
    selector: 'node.target',
    style: {
      width: 42,
      height: 42,
      shape: 'diamond',
      'border-width': 4,
      'border-color': '#17202a',
      'font-weight': 'bold',
    },
  },
  {
    selector: 'node[cluster]',
    style: {
      'underlay-color': 'data(cluster)',
      'underlay-opacity': 0.6,
      'underlay-padding': 7,
      'underlay-shape': 'ellipse',
    },
  },
  {
    selector: 'edge',
    style: {
      width: 2,
      'line-color': '#8a94a6',
      'target-arrow-color': '#8a94a6',
      'target-arrow-shape': 'triangle',
      'curve-style': 'bezier',
      label: 'data(label)',
      'font-size': 11,
      color: '#55606b',
      'text-rotation': 'autorotate',
      'text-background-color': '#ffffff',
      'text-background-opacity': 0.85,
    },
  },
];
