import type { AddressTransfer, ChainClient } from '../../src/screening/chains/chain-client';
import { crawlLimitsFor, type CrawlLimits } from '../../src/screening/engine/crawl-limits';
import { crawlExposure } from '../../src/screening/engine/exposure-crawl';
import { indirectExposureHits } from '../../src/screening/engine/indirect-exposure';
import type { AddressIntel, ReferenceData } from '../../src/screening/engine/reference-data';
import type { RiskModel } from '../../src/screening/engine/risk-model';

const ETH = { kind: 'native' as const, symbol: 'ETH', decimals: 0 };
type Graph = Record<string, [direction: 'in' | 'out', counterparty: string, amount: number][]>;

/** An in-memory chain: each address's transfers (a fake of the client interface, for the crawl's pure logic). */
function fakeClient(graph: Graph, options: { truncated?: string[] } = {}): ChainClient & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    chain: 'ethereum',
    nativeAsset: ETH,
    normalizeAddress: (a) => a,
    getTransaction: async () => null,
    getAddressFacts: async () => {
      throw new Error('not used');
    },
    async getAddressTransfers(address) {
      calls.push(address);
      const transfers: AddressTransfer[] = (graph[address] ?? []).map(([direction, counterparty, amount], i) => ({
        txid: `${address}-${i}`,
        timestamp: null,
        direction,
        counterparty,
        asset: ETH,
        amount: BigInt(amount),
      }));
      return { transfers, truncated: options.truncated?.includes(address) ?? false };
    },
  };
}

const none: AddressIntel = { sanctions: [], freezes: [], labels: [] };
function referenceData(intel: Record<string, Partial<AddressIntel>>): ReferenceData {
  return {
    lookup: async (_c, addresses) =>
      new Map(addresses.filter((a) => intel[a]).map((a) => [a, { ...none, ...intel[a] }])),
  } as ReferenceData;
}
const sanctioned: Partial<AddressIntel> = {
  sanctions: [{ chain: 'ethereum', sdnName: 'X', sdnUid: null, programs: [], designated: null, source: 'ofac' }],
};
const exchange: Partial<AddressIntel> = {
  labels: [
    {
      chain: 'ethereum',
      name: 'Ex',
      category: 'exchange',
      categories: [],
      confidence: 'high',
      source: 'test',
      sourceDate: null,
    },
  ],
};
const limits = (o: Partial<CrawlLimits> = {}): CrawlLimits => ({ ...crawlLimitsFor('KYA'), dustUsd: 0, ...o });
const usd = (_a: unknown, amount: bigint) => Number(amount);
const model = {
  severity: (c: string) => (c === 'exchange' ? 10 : c === 'mixer' ? 80 : 0),
  confidenceMultiplier: () => 1,
} as unknown as RiskModel;

describe('exposure crawl (pure logic over a fake chain)', () => {
  test('when value splits across sources, then shares propagate multiplicatively along the path', async () => {
    // T received 75 from A and 25 from B; A received everything from S.
    const client = fakeClient({
      T: [
        ['in', 'A', 75],
        ['in', 'B', 25],
      ],
      A: [['in', 'S', 10]],
      B: [],
    });
    const out = await crawlExposure(
      { chain: 'ethereum', client, referenceData: referenceData({ S: sanctioned }), usdValue: usd },
      [{ address: 'T', direction: 'in' }],
      limits(),
      AbortSignal.timeout(5000),
    );
    const s = out.nodes.find((n) => n.address === 'S')!;
    expect(s).toMatchObject({ hop: 2, share: 0.75, path: ['T', 'A', 'S'], stop: 'sanctioned' });
    expect(out.complete).toBe(true);
    const [hit] = indirectExposureHits(model, out.nodes, limits(), false);
    // E = min(75, 100 × min(1, 0.75 / 0.1) × 0.5^(2−1)) = 50
    expect(hit).toMatchObject({ score: 50, hop: 2, share: 0.75, path: ['T', 'A', 'S'] });
  });

  test('when the root is traced in both directions, then its page is read once', async () => {
    const client = fakeClient({
      T: [
        ['in', 'A', 1],
        ['out', 'B', 1],
      ],
    });
    const out = await crawlExposure(
      { chain: 'ethereum', client, referenceData: referenceData({}), usdValue: usd },
      [
        { address: 'T', direction: 'in' },
        { address: 'T', direction: 'out' },
      ],
      limits({ maxHops: 1 }),
      AbortSignal.timeout(5000),
    );
    expect(client.calls).toEqual(['T']);
    expect(out.requests).toBe(1);
    expect(out.nodes.map((n) => [n.address, n.direction])).toEqual([
      ['A', 'in'],
      ['B', 'out'],
    ]);
  });

  test('when a labelled or sanctioned node is reached, then it is scored but never expanded', async () => {
    const client = fakeClient({ T: [['in', 'E', 5]], E: [['in', 'Z', 5]] });
    const out = await crawlExposure(
      { chain: 'ethereum', client, referenceData: referenceData({ E: exchange }), usdValue: usd },
      [{ address: 'T', direction: 'in' }],
      limits(),
      AbortSignal.timeout(5000),
    );
    expect(client.calls).toEqual(['T']);
    expect(out.nodes.map((n) => [n.address, n.stop])).toEqual([['E', 'labelled']]);
  });

  test(
    'when a node has more counterparties than the fan-out, ' +
      'then the most valuable are kept and the cut is reported',
    async () => {
      const client = fakeClient({
        T: Array.from({ length: 30 }, (_, i) => ['in', `C${i}`, i + 1] as ['in', string, number]),
      });
      const out = await crawlExposure(
        { chain: 'ethereum', client, referenceData: referenceData({}), usdValue: usd },
        [{ address: 'T', direction: 'in' }],
        limits({ maxHops: 1 }),
        AbortSignal.timeout(5000),
      );
      expect(out.nodes).toHaveLength(25);
      expect(out.nodes[0]!.address).toBe('C29');
      expect(out.truncated).toContain('fanout');
      expect(out.complete).toBe(true);
    },
  );

  test('when a full page shows a hub beyond the first hop, then the hub is not expanded', async () => {
    const hubPage = Array.from({ length: 45 }, (_, i) => ['in', `H${i}`, 1] as ['in', string, number]);
    const client = fakeClient({ T: [['in', 'HUB', 5]], HUB: hubPage }, { truncated: ['HUB'] });
    const out = await crawlExposure(
      { chain: 'ethereum', client, referenceData: referenceData({}), usdValue: usd },
      [{ address: 'T', direction: 'in' }],
      limits(),
      AbortSignal.timeout(5000),
    );
    expect(out.nodes.map((n) => [n.address, n.stop])).toEqual([['HUB', 'hub']]);
  });

  test(
    'when the request budget or the deadline runs out, ' + 'then the crawl stops, says why, and is incomplete',
    async () => {
      const chainGraph: Graph = { T: [['in', 'A', 1]], A: [['in', 'B', 1]], B: [['in', 'C', 1]] };
      const budget = await crawlExposure(
        { chain: 'ethereum', client: fakeClient(chainGraph), referenceData: referenceData({}), usdValue: usd },
        [{ address: 'T', direction: 'in' }],
        limits({ maxRequests: 1 }),
        AbortSignal.timeout(5000),
      );
      const aborted = new AbortController();
      aborted.abort(new DOMException('deadline', 'TimeoutError'));
      const late = await crawlExposure(
        { chain: 'ethereum', client: fakeClient(chainGraph), referenceData: referenceData({}), usdValue: usd },
        [{ address: 'T', direction: 'in' }],
        limits(),
        aborted.signal,
      );
      expect(budget).toMatchObject({ complete: false, truncated: ['request_budget'], hopsReached: 1 });
      expect(late).toMatchObject({ complete: false, truncated: ['deadline'], hopsReached: 0 });
    },
  );

  test(
    'when exposure is dust, indirect, or the subject is ' + 'an exchange, then the documented caps and floors apply',
    () => {
      const node = (o: object) => ({
        address: 'X',
        hop: 1,
        direction: 'in' as const,
        share: 0.5,
        usd: 1000,
        path: ['T', 'X'],
        stop: null,
        intel: { ...none, ...o },
      });
      const l = limits({ dustUsd: 50 });
      // A sanctioned source one hop away weighs at least 45 however small its share (OFAC has no de minimis).
      expect(indirectExposureHits(model, [{ ...node(sanctioned), share: 0.001 }], l, false)[0]!.score).toBe(45);
      expect(indirectExposureHits(model, [{ ...node(sanctioned), hop: 1 }], l, false)[0]!.score).toBe(75);
      expect(indirectExposureHits(model, [{ ...node(sanctioned), hop: 1 }], l, true)[0]!.score).toBe(40);
      expect(
        indirectExposureHits(
          model,
          [{ ...node({ labels: [{ ...exchange.labels![0]!, category: 'mixer' }] }), usd: 20 }],
          l,
          false,
        ),
      ).toEqual([]);
    },
  );
});
