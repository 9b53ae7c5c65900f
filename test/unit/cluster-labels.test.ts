import path from 'node:path';
import type { ClusterMembership, ClusterMerge, ClusterPort } from '../../src/screening/engine/cluster-labels';
import { withClusters } from '../../src/screening/engine/cluster-labels';
import type { AddressIntel, ReferenceData } from '../../src/screening/engine/reference-data';
import { loadRiskModel } from '../../src/screening/engine/risk-model';
import { scoreParties } from '../../src/screening/engine/scoring';
import { indirectExposureHits } from '../../src/screening/engine/indirect-exposure';

const model = loadRiskModel(path.join(__dirname, '../../data/risk'));
const NOW = 1_790_000_000;

/**
 * Pure logic: the reference data and the cluster port are in-memory fakes (the store and expansion are tested on
 * Postgres).
 */
function fixture(options: {
  intel: Record<string, AddressIntel>;
  clusters: Record<string, ClusterMembership>;
  merges: Record<string, ClusterMerge[]>;
}) {
  const data: ReferenceData = {
    provenance: async () => [],
    lookup: async (_chain, addresses) =>
      new Map(addresses.filter((a) => options.intel[a]).map((a) => [a, structuredClone(options.intel[a]!)])),
  };
  const port: ClusterPort = {
    clustersOf: async (_chain, addresses) =>
      new Map(addresses.filter((a) => options.clusters[a]).map((a) => [a, options.clusters[a]!])),
    explain: async (_chain, from, to) => options.merges[`${from}>${to}`] ?? null,
  };
  return withClusters(data, port, {
    model,
    client: undefined,
    budget: { calls: 10, spent: 0 },
    signal: new AbortController().signal,
  });
}

const cluster = (members: string[], partial = false): ClusterMembership => ({
  id: '7',
  size: members.length,
  partial,
  members,
});

const TXID = 'a'.repeat(64);

describe('labels follow wallet clusters', () => {
  it(
    'a custom sanctions label on a co-input address makes the target HIGH, ' + 'naming the txid that joined them',
    async () => {
      const clustered = fixture({
        intel: {
          L: {
            sanctions: [],
            freezes: [],
            labels: [
              {
                chain: 'bitcoin',
                name: 'banned',
                category: 'ransomware',
                categories: ['ransomware'],
                confidence: 'high',
                source: 'custom',
                sourceDate: null,
                labelId: '00000000-0000-4000-8000-000000000001',
              },
            ],
          },
        },
        clusters: { T: cluster(['T', 'L']) },
        merges: { 'T>L': [{ a: 'T', b: 'L', heuristic: 'common_input', txid: TXID }] },
      });
      const intel = await clustered.lookup('bitcoin', ['T']);
      const score = scoreParties(model, {
        parties: [{ address: 'T', role: 'target', intel: intel.get('T')! }],
        subjectFacts: null,
        subjectLabels: intel.get('T')!.labels,
        nowSeconds: NOW,
      });
      expect(score.riskLevel).toBe('HIGH');
      const hit = score.hits.find((h) => h.via_cluster);
      expect(hit?.via_cluster).toMatchObject({ txid: TXID, heuristic: 'common_input', cluster_id: '7', size: 2 });
      expect(hit?.detail).toContain(TXID);
    },
  );

  it(
    'a sanction spreads as the entity (tag_score), ' + 'not as the address being listed (is_sanctioned stays 0)',
    async () => {
      const clustered = fixture({
        intel: {
          S: {
            sanctions: [
              { chain: 'bitcoin', sdnName: 'X', sdnUid: '1', programs: ['CYBER2'], designated: null, source: 'ofac' },
            ],
            freezes: [],
            labels: [],
          },
        },
        clusters: { T: cluster(['T', 'M', 'S']) },
        merges: {
          'T>S': [
            { a: 'T', b: 'M', heuristic: 'common_input', txid: TXID },
            { a: 'M', b: 'S', heuristic: 'common_input', txid: 'b'.repeat(64) },
          ],
        },
      });
      const intel = (await clustered.lookup('bitcoin', ['T'])).get('T')!;
      const score = scoreParties(model, {
        parties: [{ address: 'T', role: 'target', intel }],
        subjectFacts: null,
        subjectLabels: [],
        nowSeconds: NOW,
      });
      expect(score.ruleScores.is_sanctioned).toBe(0);
      expect(score.riskLevel).toBe('HIGH');
      expect(score.hits[0]?.via_cluster?.merges).toHaveLength(2);
    },
  );

  it(
    'an allow label does not spread, ' + 'and a weak (low-confidence) label spreads with a third of its weight',
    async () => {
      const clustered = fixture({
        intel: {
          A: {
            sanctions: [],
            freezes: [],
            labels: [
              {
                chain: 'bitcoin',
                name: null,
                category: 'allow',
                categories: [],
                confidence: 'high',
                source: 'custom',
                sourceDate: null,
              },
              {
                chain: 'bitcoin',
                name: null,
                category: 'scam',
                categories: [],
                confidence: 'low',
                source: 'web',
                sourceDate: null,
              },
            ],
          },
        },
        clusters: { T: cluster(['T', 'A']) },
        merges: { 'T>A': [{ a: 'T', b: 'A', heuristic: 'common_input', txid: TXID }] },
      });
      const labels = (await clustered.lookup('bitcoin', ['T'])).get('T')!.labels;
      expect(labels.map((l) => l.category)).toEqual(['scam']);
      expect(labels[0]!.viaCluster!.weight).toBeCloseTo(20 / 60, 3);
    },
  );

  it('an address alone (no cluster) reads only its own findings', async () => {
    const clustered = fixture({ intel: {}, clusters: {}, merges: {} });
    expect((await clustered.lookup('bitcoin', ['T'])).size).toBe(0);
  });

  it('a crawl node in a sanctioned cluster is exposure to that entity at its hop, with via_cluster', async () => {
    const clustered = fixture({
      intel: {
        S: {
          sanctions: [
            { chain: 'bitcoin', sdnName: 'X', sdnUid: '1', programs: ['CYBER2'], designated: null, source: 'ofac' },
          ],
          freezes: [],
          labels: [],
        },
      },
      clusters: { N: cluster(['N', 'S']) },
      merges: { 'N>S': [{ a: 'N', b: 'S', heuristic: 'common_input', txid: TXID }] },
    });
    const intel = (await clustered.lookup('bitcoin', ['N'])).get('N')!;
    const hits = indirectExposureHits(
      model,
      [{ address: 'N', hop: 1, direction: 'in', share: 0.5, usd: 1000, path: ['T', 'N'], intel }],
      { dustShare: 0.01, dustUsd: 50 },
      false,
    );
    expect(hits[0]).toMatchObject({ hop: 1, category: 'sanctions', via_cluster: { txid: TXID } });
    expect(hits[0]!.score).toBeGreaterThanOrEqual(model.document.indirect.sanctioned_hop1_floor);
  });
});
