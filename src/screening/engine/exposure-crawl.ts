import type { Chain } from '../chains/chain';
import type { Asset, ChainClient } from '../chains/chain-client';
import type { CrawlLimits } from './crawl-limits';
import type { AddressIntel, ReferenceData } from './reference-data';

export type FlowDirection = 'in' | 'out';

/** A screened party the crawl starts from (hop 0), traced upstream ('in': sources) or downstream ('out'). */
export interface CrawlRoot {
  address: string;
  direction: FlowDirection;
}

export interface ExposureNode {
  address: string;
  hop: number;
  direction: FlowDirection;
  /** Share of the root's flow (in that direction) that reached this node along `path`. */
  share: number;
  usd: number;
  /** Root first, this node last. */
  path: string[];
  intel: AddressIntel | null;
  /** Why the node was not expanded: labelled, sanctioned, hub, last hop, budget, deadline; null if it was. */
  stop: string | null;
}

export interface ExposureEdge {
  from: string;
  to: string;
  txids: string[];
  asset: string;
  amount: string;
  usd: number | null;
  hop: number;
}

export interface CrawlOutcome {
  nodes: ExposureNode[];
  edges: ExposureEdge[];
  complete: boolean;
  truncated: string[];
  hopsReached: number;
  requests: number;
}

export interface CrawlDeps {
  chain: Chain;
  client: ChainClient;
  referenceData: ReferenceData;
  /**
   * USD value of an amount at the transfer's time (unix seconds, null when unknown); null when the asset has no price.
   */
  usdValue(asset: Asset, amount: bigint, timestamp: number | null): number | null | Promise<number | null>;
}

const assetKey = (a: Asset) => (a.kind === 'native' ? a.symbol : (a.symbol ?? a.contract));
const hasIntel = (i: AddressIntel | null | undefined) =>
  Boolean(i && (i.sanctions.length || i.freezes.length || i.labels.length));

/**
 * Breadth-first exposure crawl (risk-data §C.12): hop by hop from the roots, each frontier ordered by
 * propagated share so a deadline cuts off the least valuable paths first. A node is expanded in the
 * direction it was reached (sources upstream, destinations downstream), keeping its top counterparties
 * by value. Labelled and sanctioned nodes and hubs are scored but never expanded. When the deadline,
 * node or request budget stops the crawl, the result says so: the unexplored part is unknown, not clean.
 */
export async function crawlExposure(
  deps: CrawlDeps,
  roots: CrawlRoot[],
  limits: CrawlLimits,
  signal: AbortSignal,
): Promise<CrawlOutcome> {
  const nodes: ExposureNode[] = [];
  const edges: ExposureEdge[] = [];
  const truncated = new Set<string>();
  const seen = new Set(roots.map((r) => `${r.direction}|${r.address}`));
  let requests = 0;
  let hopsReached = 0;
  // An address reached in both directions (every KYA root) is read once: one page holds both.
  const pages = new Map<string, ReturnType<NonNullable<ChainClient['getAddressTransfers']>>>();
  let frontier: ExposureNode[] = roots.map((r) => ({
    address: r.address,
    hop: 0,
    direction: r.direction,
    share: 1,
    usd: 0,
    path: [r.address],
    intel: null,
    stop: null,
  }));

  if (!deps.client.getAddressTransfers)
    return { nodes, edges, complete: false, truncated: ['no_address_index'], hopsReached, requests };

  for (let hop = 0; hop < limits.maxHops && frontier.length > 0; hop++) {
    const children: ExposureNode[] = [];
    for (const node of [...frontier].sort((a, b) => b.share - a.share)) {
      const cut = signal.aborted
        ? 'deadline'
        : requests >= limits.maxRequests
          ? 'request_budget'
          : nodes.length + children.length >= limits.maxNodes
            ? 'node_budget'
            : null;
      if (cut) {
        node.stop = cut;
        truncated.add(cut);
        continue;
      }
      let page: Awaited<ReturnType<typeof deps.client.getAddressTransfers>>;
      try {
        let pending = pages.get(node.address);
        if (!pending) {
          requests++;
          pending = deps.client.getAddressTransfers(node.address, { limit: limits.pageSize }, signal);
          pages.set(node.address, pending);
        }
        page = await pending;
      } catch (err) {
        if (!signal.aborted) throw err;
        node.stop = 'deadline';
        truncated.add('deadline');
        continue;
      }
      const flows = await aggregate(
        page.transfers.filter((t) => t.direction === node.direction && t.counterparty !== node.address),
        deps,
      );
      if (page.truncated && flows.length >= limits.hubCounterparties && hop > 0) {
        node.stop = 'hub';
        continue;
      }
      const totalUsd = flows.reduce((s, f) => s + f.usd, 0);
      const kept = flows.slice(0, limits.fanout[hop] ?? limits.fanout[limits.fanout.length - 1] ?? 5);
      if (kept.length < flows.length) truncated.add('fanout');
      for (const f of kept) {
        const share = node.share * (totalUsd > 0 ? f.usd / totalUsd : 1 / flows.length);
        const [from, to] = node.direction === 'in' ? [f.counterparty, node.address] : [node.address, f.counterparty];
        edges.push({
          from,
          to,
          txids: f.txids,
          asset: f.assets.join('+'),
          amount: f.amountLabel,
          usd: f.priced ? Math.round(f.usd * 100) / 100 : null,
          hop: hop + 1,
        });
        const key = `${node.direction}|${f.counterparty}`;
        if (seen.has(key)) continue;
        seen.add(key);
        children.push({
          address: f.counterparty,
          hop: hop + 1,
          direction: node.direction,
          share,
          usd: f.usd,
          path: [...node.path, f.counterparty],
          intel: null,
          stop: null,
        });
      }
    }
    if (children.length === 0) break;
    hopsReached = hop + 1;
    const intel = await deps.referenceData.lookup(
      deps.chain,
      children.map((c) => c.address),
    );
    for (const c of children) {
      c.intel = intel.get(c.address) ?? null;
      if (c.intel?.sanctions.length) c.stop = 'sanctioned';
      else if (hasIntel(c.intel)) c.stop = 'labelled';
      else if (c.hop >= limits.maxHops) c.stop = 'last_hop';
    }
    nodes.push(...children);
    frontier = children.filter((c) => c.stop === null);
  }
  return {
    nodes,
    edges,
    complete: truncated.size === 0 || (truncated.size === 1 && truncated.has('fanout')),
    truncated: [...truncated],
    hopsReached,
    requests,
  };
}

interface Flow {
  counterparty: string;
  usd: number;
  priced: boolean;
  txids: string[];
  assets: string[];
  amountLabel: string;
}

/** Sums each counterparty's transfers (all assets, in USD) and sorts by value, largest first. */
async function aggregate(
  transfers: { counterparty: string; asset: Asset; amount: bigint; txid: string; timestamp: number | null }[],
  deps: CrawlDeps,
): Promise<Flow[]> {
  const by = new Map<string, Flow & { amounts: Map<string, bigint>; decimals: Map<string, number> }>();
  for (const t of transfers) {
    const f = by.get(t.counterparty) ?? {
      counterparty: t.counterparty,
      usd: 0,
      priced: true,
      txids: [] as string[],
      assets: [] as string[],
      amountLabel: '',
      amounts: new Map<string, bigint>(),
      decimals: new Map<string, number>(),
    };
    const usd = await deps.usdValue(t.asset, t.amount, t.timestamp);
    if (usd === null) f.priced = false;
    f.usd += usd ?? 0;
    if (!f.txids.includes(t.txid)) f.txids.push(t.txid);
    const key = assetKey(t.asset);
    if (!f.assets.includes(key)) f.assets.push(key);
    f.amounts.set(key, (f.amounts.get(key) ?? 0n) + t.amount);
    f.decimals.set(key, t.asset.decimals ?? 0);
    by.set(t.counterparty, f);
  }
  return [...by.values()]
    .map(({ amounts, decimals, ...f }) => ({
      ...f,
      amountLabel: [...amounts].map(([k, v]) => `${formatUnits(v, decimals.get(k) ?? 0)} ${k}`).join(' + '),
    }))
    .sort((a, b) => b.usd - a.usd || a.counterparty.localeCompare(b.counterparty));
}

function formatUnits(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const s = amount.toString().padStart(decimals + 1, '0');
  return `${s.slice(0, -decimals)}.${s.slice(-decimals)}`.replace(/\.?0+$/, '');
}
