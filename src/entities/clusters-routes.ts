import { Router } from 'express';
import { currentUser, requireScope } from '../identity';
import { DIGITS } from '../platform/http/common-patterns';
import { invalidParameter } from '../platform/http/errors';
import {
  addressFormatHint,
  type BitcoinNetwork,
  type Chain,
  type CustomLabelLookup,
  normalizeAddress,
  type ReferenceData,
  type RiskModel,
  SUPPORTED_CHAINS,
  sourceConfidence,
  withCustomLabels,
} from '../screening';
import type { ClusterStore } from './cluster-store';
import type { ClusterView } from './clusters-views';

export interface ClustersRouterDeps {
  clusters: ClusterStore;
  /** The reference data; each request adds the caller's own labels (and nobody else's). */
  referenceData: ReferenceData;
  customLabels: CustomLabelLookup;
  model: RiskModel;
  bitcoinNetwork: BitcoinNetwork;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1_000;

/**
 * GET /api/v1/clusters/:chain/:address: the wallet cluster as Postgres holds it (what analyses grew), its labels (the
 * reference data's and the caller's own, over at most `clusters.max_members_read` members) and the merges that built
 * it. It reads only: growing a cluster costs chain calls, which a screening pays for.
 */
export function createClustersRouter(deps: ClustersRouterDeps): Router {
  const router = Router();

  router.get('/clusters/:chain/:address', requireScope('read'), async (req, res) => {
    const chain = req.params.chain as Chain;
    if (!(SUPPORTED_CHAINS as readonly string[]).includes(chain))
      throw invalidParameter('chain', `one of ${SUPPORTED_CHAINS.join(', ')}`);
    const raw = String(req.params.address);
    const address = (raw.length <= 128 && normalizeAddress(chain, raw, deps.bitcoinNetwork)) || null;
    if (!address) throw invalidParameter('address', addressFormatHint(chain, deps.bitcoinNetwork));
    const limitParam = req.query.limit;
    if (
      limitParam !== undefined &&
      (typeof limitParam !== 'string' ||
        !DIGITS.test(limitParam) ||
        Number(limitParam) < 1 ||
        Number(limitParam) > MAX_LIMIT)
    )
      throw invalidParameter('limit', `an integer from 1 to ${MAX_LIMIT}`);
    const limit = limitParam === undefined ? DEFAULT_LIMIT : Number(limitParam);

    const cluster = await deps.clusters.clusterOf(chain, address, {
      members: deps.model.document.clusters.max_members_read,
    });
    const members = cluster?.members ?? [address];
    const labelled = withCustomLabels(deps.referenceData, deps.customLabels, currentUser(res).id, {
      includeAllow: true,
    });
    const intel = await labelled.lookup(chain, members);
    const labels: ClusterView['labels'] = [];
    for (const member of members) {
      const found = intel.get(member);
      if (!found) continue;
      for (const s of found.sanctions)
        labels.push({
          address: member,
          name: s.sdnName,
          category: 'sanctions',
          source: s.source,
          confidence: sourceConfidence(deps.model, { sanction: true }),
        });
      for (const l of found.labels)
        labels.push({
          address: member,
          name: l.name,
          category: l.category,
          source: l.source,
          confidence: sourceConfidence(deps.model, l),
        });
    }
    const merges = cluster ? await deps.clusters.links(chain, cluster.id, limit) : [];
    const view: ClusterView = {
      chain,
      address,
      cluster_id: cluster ? String(cluster.id) : null,
      size: cluster?.size ?? 1,
      partial: cluster?.partial ?? true,
      members: members.slice(0, limit),
      labels: labels.slice(0, limit),
      merges: merges.map((m) => ({
        a: m.a,
        b: m.b,
        heuristic: m.heuristic,
        txid: m.txid,
        merged_at: m.createdAt.toISOString(),
      })),
    };
    res.json({ success: true, data: view });
  });

  return router;
}
