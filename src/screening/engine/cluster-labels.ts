import type { Chain } from '../chains/chain';
import type { ChainClient } from '../chains/chain-client';
import { ALLOW_CATEGORY, CUSTOM_SOURCE } from './custom-labels';
import type { AddressIntel, LabelHit, ReferenceData, SanctionHit, ViaCluster } from './reference-data';
import type { RiskModel } from './risk-model';

/** One merge of the chain that joins two members of a cluster: its two addresses, heuristic and transaction. */
export interface ClusterMerge {
  a: string;
  b: string;
  heuristic: string;
  txid: string;
}

/** An address's wallet cluster as a screening reads it: at most `max_members_read` of its members. */
export interface ClusterMembership {
  id: string;
  size: number;
  partial: boolean;
  /** Members including the address itself; fewer than `size` when the cluster is larger than the read. */
  members: string[];
}

/** What one screening may spend growing clusters: chain calls, shared by every lookup of that screening. */
export interface ExpansionBudget {
  calls: number;
  /** Calls spent so far (the full response's performance section reports them). */
  spent: number;
}

/**
 * The port the engine reads wallet clusters through (src/entities, wired in the worker runtime): grows the clusters of
 * these addresses through the chain client within the budget, then answers them from Postgres. An address no
 * transaction has joined to another is absent (a cluster of one).
 */
export interface ClusterPort {
  clustersOf(
    chain: Chain,
    addresses: readonly string[],
    context: {
      client: ChainClient | undefined;
      budget: ExpansionBudget;
      maxMembers: number;
      signal: AbortSignal;
      /**
       * Whether the reference data this analysis reads (the account's own labels included) labels the address an
       * exchange.
       */
      isLabelledExchange: (address: string) => Promise<boolean>;
    },
  ): Promise<Map<string, ClusterMembership>>;
  /** The chain of merges from `from` to `to` (the explanation of why they are one cluster); null when apart. */
  explain(chain: Chain, from: string, to: string): Promise<ClusterMerge[] | null>;
}

/** A label's source confidence on the TagPack scale (risk-model.json clusters.source_confidence). */
export function sourceConfidence(model: RiskModel, finding: { sanction: true } | LabelHit): number {
  const scale = model.document.clusters.source_confidence;
  if ('sanction' in finding) return scale.sanctions;
  if (finding.source === CUSTOM_SOURCE) return scale.custom;
  if (finding.confidence === 'high') return scale.label_high;
  if (finding.confidence === 'medium') return scale.label_medium;
  return scale.label_low;
}

/** The weakest heuristic of a chain of merges, and the merge that carries it (the first such from the address). */
function weakestMerge(model: RiskModel, merges: ClusterMerge[]): { merge: ClusterMerge; weight: number } | null {
  const weights = model.document.clusters.heuristic_weight;
  let weakest: { merge: ClusterMerge; weight: number } | null = null;
  for (const merge of merges) {
    const weight = weights[merge.heuristic] ?? 0;
    if (!weakest || weight < weakest.weight) weakest = { merge, weight };
  }
  return weakest;
}

/**
 * The reference data as a cluster-aware screening reads them: every lookup grows the asked addresses' clusters
 * (within the budget), reads the reference data for their members too, and adds to each address the findings of its
 * cluster's other members, marked `viaCluster` with the merges that join them. Hops therefore count entities: a
 * counterparty that is any address of a sanctioned entity's cluster carries that entity's sanction. An account's
 * `allow` label never spreads (it clears one address after a review, not an entity), and a finding that itself came
 * through a cluster is not spread again.
 */
export function withClusters(
  data: ReferenceData,
  port: ClusterPort,
  context: { model: RiskModel; client: ChainClient | undefined; budget: ExpansionBudget; signal: AbortSignal },
): ReferenceData & { memberships(): Map<string, ClusterMembership> } {
  const known = new Map<string, ClusterMembership>();
  const spreadable = (l: LabelHit) => l.category !== ALLOW_CATEGORY && !l.viaCluster;
  const { full_weight_confidence: full } = context.model.document.clusters;

  async function via(
    chain: Chain,
    address: string,
    member: string,
    cluster: ClusterMembership,
    confidence: number,
  ): Promise<ViaCluster | null> {
    const merges = await port.explain(chain, address, member);
    if (!merges || merges.length === 0) return null;
    const weakest = weakestMerge(context.model, merges);
    if (!weakest) return null;
    const weight = Math.min(1, confidence / full) * weakest.weight;
    if (weight <= 0) return null;
    return {
      cluster_id: cluster.id,
      heuristic: weakest.merge.heuristic,
      txid: weakest.merge.txid,
      size: cluster.size,
      partial: cluster.partial,
      address: member,
      confidence,
      weight: Math.round(weight * 1000) / 1000,
      merges,
    };
  }

  return {
    provenance: () => data.provenance(),
    memberships: () => known,
    async lookup(chain, addresses) {
      const exchangeCategories = context.model.document.behaviour.exchange_categories;
      const grown = await port.clustersOf(chain, addresses, {
        client: context.client,
        budget: context.budget,
        maxMembers: context.model.document.clusters.max_members_read,
        signal: context.signal,
        isLabelledExchange: async (address) =>
          ((await data.lookup(chain, [address])).get(address)?.labels ?? []).some((l) =>
            exchangeCategories.includes(l.category),
          ),
      });
      for (const [address, cluster] of grown) known.set(address, cluster);
      const others = new Set<string>();
      for (const address of addresses)
        for (const m of grown.get(address)?.members ?? []) if (m !== address) others.add(m);
      const intel = await data.lookup(chain, [...new Set([...addresses, ...others])]);
      const answer = new Map<string, AddressIntel>();
      for (const address of addresses) {
        const own = intel.get(address);
        const entry: AddressIntel = own
          ? { ...own, sanctions: [...own.sanctions], labels: [...own.labels] }
          : { sanctions: [], freezes: [], labels: [] };
        const cluster = grown.get(address);
        for (const member of cluster?.members ?? []) {
          const found = member === address ? undefined : intel.get(member);
          if (!found) continue;
          const labels = found.labels.filter(spreadable);
          const sanctions = found.sanctions.filter((s) => !s.viaCluster);
          if (labels.length === 0 && sanctions.length === 0) continue;
          for (const s of sanctions) {
            const v = await via(chain, address, member, cluster!, sourceConfidence(context.model, { sanction: true }));
            if (v) entry.sanctions.push({ ...s, viaCluster: v } satisfies SanctionHit);
          }
          for (const l of labels) {
            const v = await via(chain, address, member, cluster!, sourceConfidence(context.model, l));
            if (v) entry.labels.push({ ...l, viaCluster: v });
          }
        }
        if (own || entry.sanctions.length || entry.labels.length) answer.set(address, entry);
      }
      return answer;
    },
  };
}
