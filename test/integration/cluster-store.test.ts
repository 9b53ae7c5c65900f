/**
 * Wallet clusters on real Postgres (migration 032, src/entities): union by size with its evidence, the path that
 * explains two members, old ids that still resolve, partial clusters, 20 concurrent batches building one cluster,
 * and budgeted expansions over in-memory chain clients (the btcd and EVM clients are tested elsewhere): CoinJoin
 * participants stay apart, deposit addresses join their exchange's hot wallet and nothing else, a spent budget
 * leaves the cluster partial, and a second expansion continues where the first stopped.
 * Each test uses a chain name of its own, so tests share the database without meeting.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { type ClusterLink, type ClusterStore, createClusterStore, expandCluster } from '../../src/entities';
import { createPool } from '../../src/platform/db/pool';
import type { AddressTransfer, ChainClient, UtxoTransaction } from '../../src/screening';

type AddressFacts = Awaited<ReturnType<ChainClient['getAddressFacts']>>;

let pool: Pool;
let store: ClusterStore;

beforeAll(() => {
  pool = createPool(process.env.TEST_DATABASE_URL as string, 10);
  store = createClusterStore(pool);
});
afterAll(async () => {
  await pool.end();
});

const freshChain = (kind = 'bitcoin') => `${kind}-test-${randomUUID().slice(0, 8)}`;
const link = (a: string, b: string, txid = `tx-${a}-${b}`): ClusterLink => ({ a, b, heuristic: 'common_input', txid });

async function clusterRow(id: number) {
  const { rows } = await pool.query('SELECT id, size, merged_into FROM clusters WHERE id = $1', [id]);
  return rows[0] as { id: number; size: number; merged_into: number | null };
}

async function countRows(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(sql, params);
  return rows[0]?.n ?? 0;
}

describe('cluster store', () => {
  test(
    'when two clusters are linked, ' +
      'then the smaller one is relabelled into the larger, sizes add up and the joining link is the evidence',
    async () => {
      const chain = freshChain();
      const first = await store.applyLinks(chain, [link('a', 'b'), link('b', 'c')]);
      expect(first.merged).toBe(2);
      await store.applyLinks(chain, [link('d', 'e')]);
      const big = (await store.clusterOf(chain, 'a'))!;
      const small = (await store.clusterOf(chain, 'd'))!;
      expect([big.size, small.size]).toEqual([3, 2]);
      expect(big.id).not.toBe(small.id);

      // One joining link and one between members already together (a-c): only the first is evidence.
      const joined = await store.applyLinks(chain, [link('e', 'a', 'tx-join'), link('a', 'c', 'tx-redundant')]);
      expect(joined).toEqual({ merged: 1, clusterIds: [big.id] });
      for (const address of ['a', 'b', 'c', 'd', 'e']) expect((await store.clusterOf(chain, address))?.id).toBe(big.id);
      expect(await clusterRow(big.id)).toMatchObject({ size: 5, merged_into: null });
      expect(await clusterRow(small.id)).toMatchObject({ merged_into: big.id });

      const links = await store.links(chain, big.id, 10);
      expect(links.map((l) => [l.a, l.b, l.heuristic, l.txid])).toEqual([
        ['a', 'b', 'common_input', 'tx-a-b'],
        ['b', 'c', 'common_input', 'tx-b-c'],
        ['d', 'e', 'common_input', 'tx-d-e'],
        ['e', 'a', 'common_input', 'tx-join'],
      ]);
      expect(links[0]?.createdAt).toBeInstanceOf(Date);
      expect(await store.members(chain, big.id, 3)).toEqual(['a', 'b', 'c']);
      expect((await store.clusterOf(chain, 'a', { members: 10 }))?.members).toEqual(['a', 'b', 'c', 'd', 'e']);
      expect(await store.clusterOf(chain, 'nobody')).toBeNull();
      expect(await store.applyLinks(chain, [])).toEqual({ merged: 0, clusterIds: [] });
    },
  );

  test('when an address was read, then it counts as read until its read is older than the re-read age', async () => {
    const chain = freshChain();
    await store.markExpanded(chain, ['r1'], false);
    expect(await store.notExpanded(chain, ['r1', 'r2'])).toEqual(['r2']);
    expect(await store.notExpanded(chain, ['r1', 'r2'], 3_600_000)).toEqual(['r2']);
    await new Promise((r) => setTimeout(r, 20));
    expect(await store.notExpanded(chain, ['r1', 'r2'], 10)).toEqual(['r1', 'r2']);
  });

  test('when two members are 3 links apart, then explain answers that path in order, either way round', async () => {
    const chain = freshChain();
    await store.applyLinks(chain, [link('a', 'b', 't1'), link('c', 'd', 't2')]);
    await store.applyLinks(chain, [link('b', 'c', 't3'), link('x', 'y', 't4'), link('a', 'z', 't5')]);
    const path = await store.explain(chain, 'a', 'd');
    expect(path?.map((s) => [s.from, s.to, s.txid, s.heuristic])).toEqual([
      ['a', 'b', 't1', 'common_input'],
      ['b', 'c', 't3', 'common_input'],
      ['c', 'd', 't2', 'common_input'],
    ]);
    expect((await store.explain(chain, 'd', 'a'))?.map((s) => [s.from, s.to])).toEqual([
      ['d', 'c'],
      ['c', 'b'],
      ['b', 'a'],
    ]);
    expect(await store.explain(chain, 'a', 'x')).toBeNull();
    expect(await store.explain(chain, 'a', 'unknown')).toBeNull();
    expect(await store.explain(chain, 'a', 'a')).toEqual([]);
    expect(await store.explain(freshChain(), 'a', 'd')).toBeNull();
  });

  test(
    'when a cluster is absorbed, ' +
      'then its old id still resolves to the survivor, one hop away even after a second merge',
    async () => {
      const chain = freshChain();
      await store.applyLinks(chain, [link('s1', 's2')]);
      const lostId = (await store.clusterOf(chain, 's1'))!.id;
      await store.applyLinks(chain, [link('m1', 'm2'), link('m2', 'm3')]);
      const middleId = (await store.clusterOf(chain, 'm1'))!.id;
      await store.applyLinks(chain, [link('s2', 'm1')]);
      expect(await store.resolveId(lostId)).toBe(middleId);

      await store.applyLinks(chain, [
        link('b1', 'b2'),
        link('b1', 'b3'),
        link('b1', 'b4'),
        link('b1', 'b5'),
        link('b1', 'b6'),
      ]);
      const bigId = (await store.clusterOf(chain, 'b1'))!.id;
      await store.applyLinks(chain, [link('b6', 's1')]);
      expect(await store.resolveId(middleId)).toBe(bigId);
      expect(await store.resolveId(lostId)).toBe(bigId);
      expect((await clusterRow(lostId)).merged_into).toBe(bigId);
      expect(await store.resolveId(bigId)).toBe(bigId);
      expect(await store.resolveId(-1)).toBeNull();
      expect(await store.members(chain, lostId, 100)).toHaveLength(11);
      expect((await store.clusterOf(chain, 's1'))?.size).toBe(11);
    },
  );

  test(
    'when members are read (some only in part), ' +
      'then unexpanded and partial follow, and a read address with no link gets a singleton',
    async () => {
      const chain = freshChain();
      await store.applyLinks(chain, [link('a', 'b')]);
      const id = (await store.clusterOf(chain, 'a'))!.id;
      expect((await store.clusterOf(chain, 'a'))?.partial).toBe(true);
      expect(await store.unexpanded(chain, id, 10)).toEqual(['a', 'b']);
      await store.markExpanded(chain, ['a'], false);
      expect(await store.unexpanded(chain, id, 10)).toEqual(['b']);
      await store.markExpanded(chain, ['b'], true);
      expect(await store.unexpanded(chain, id, 10)).toEqual([]);
      expect((await store.clusterOf(chain, 'b'))?.partial).toBe(true);
      await store.markExpanded(chain, ['b'], false);
      expect((await store.clusterOf(chain, 'b'))?.partial).toBe(false);
      expect(await store.notExpanded(chain, ['a', 'b', 'new'])).toEqual(['new']);

      await store.markExpanded(chain, ['loner', 'loner'], false);
      expect(await store.clusterOf(chain, 'loner')).toMatchObject({ size: 1, partial: false });
      // It can still join a cluster later.
      expect((await store.applyLinks(chain, [link('loner', 'a')])).merged).toBe(1);
      expect((await store.clusterOf(chain, 'loner'))?.size).toBe(3);
    },
  );

  test(
    'when 20 concurrent batches build overlapping parts of one 200-address cluster, ' +
      'then one cluster of 200 remains, with 199 links',
    async () => {
      const chain = freshChain();
      const x = Array.from({ length: 200 }, (_, i) => `addr${String(i).padStart(3, '0')}`);
      let seed = 42;
      const random = (n: number) => {
        seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
        return seed % n;
      };
      const batches = Array.from({ length: 20 }, (_, i) => {
        const links: ClusterLink[] = [];
        for (let j = 0; j < 10; j++) {
          const at = 10 * i + j;
          if (at + 1 < 200) links.push(link(x[at]!, x[at + 1]!));
        }
        // Links into other batches' ranges, and links the chain above makes redundant.
        for (let k = 0; k < 5; k++) links.push(link(x[random(200)]!, x[10 * i + random(10)]!, `cross-${i}-${k}`));
        return links.filter((l) => l.a !== l.b);
      });
      const results = await Promise.all(batches.map((links) => store.applyLinks(chain, links)));

      expect(results.reduce((sum, r) => sum + r.merged, 0)).toBe(199);
      const { rows } = await pool.query<{ cluster_id: number; n: number }>(
        'SELECT cluster_id, count(*)::int AS n FROM cluster_addresses WHERE chain = $1 GROUP BY cluster_id',
        [chain],
      );
      expect(rows).toHaveLength(1);
      const id = rows[0]!.cluster_id;
      expect(rows[0]!.n).toBe(200);
      expect(await clusterRow(id)).toMatchObject({ size: 200, merged_into: null });
      expect(await countRows('SELECT count(*)::int AS n FROM cluster_links WHERE chain = $1', [chain])).toBe(199);
      expect(await store.links(chain, id, 1_000)).toHaveLength(199);
      // Every absorbed cluster of this chain points straight at the survivor.
      expect(
        await countRows(
          'SELECT count(*)::int AS n FROM clusters WHERE chain = $1 AND merged_into IS NOT NULL AND merged_into <> $2',
          [chain, id],
        ),
      ).toBe(0);
      const path = await store.explain(chain, x[0]!, x[199]!);
      expect(path?.[0]?.from).toBe(x[0]);
      expect(path?.at(-1)?.to).toBe(x[199]);
    },
  );
});

// ---------------------------------------------------------------------------------------------------------------
// Expansion over in-memory chain clients.

const BTC = { kind: 'native', symbol: 'BTC', decimals: 8 } as const;
const ETH = { kind: 'native', symbol: 'ETH', decimals: 18 } as const;

/** A bitcoin client over a fixed set of transactions, counting its reads. */
function fakeBitcoin(txs: UtxoTransaction[], onCall?: (n: number) => void) {
  let calls = 0;
  const client = {
    chain: 'bitcoin',
    nativeAsset: BTC,
    normalizeAddress: (a: string) => a,
    getTransaction: async () => null,
    getAddressFacts: async () => {
      throw new Error('not used by clustering on bitcoin');
    },
    async getAddressTransactions(address: string, { limit }: { limit: number }, signal: AbortSignal) {
      calls++;
      onCall?.(calls);
      signal.throwIfAborted();
      const touching = txs
        .filter((t) => [...t.inputs, ...t.outputs].some((io) => io.address === address))
        .sort((p, q) => (q.timestamp ?? 0) - (p.timestamp ?? 0));
      return { transactions: touching.slice(0, limit), truncated: touching.length > limit };
    },
  } as unknown as ChainClient;
  return { client, calls: () => calls };
}

const spend = (txid: string, at: number, inputs: string[], outputs: [string, bigint][]): UtxoTransaction => ({
  txid,
  timestamp: at,
  inputs: inputs.map((address) => ({ address, value: 1_000_100n })),
  outputs: outputs.map(([address, value]) => ({ address, value })),
});

/** e0..e5: one wallet spending pairs of its addresses; e0 and 4 strangers also meet in a Whirlpool mix. */
function economy(prefix: string) {
  const e = Array.from({ length: 6 }, (_, i) => `${prefix}e${i}`);
  const p = Array.from({ length: 5 }, (_, i) => `${prefix}p${i}`);
  const txs = [
    ...e
      .slice(0, 5)
      .map((a, i) => spend(`${prefix}t${i}`, 1_000 + i, [a, e[i + 1]!], [[`${prefix}shop${i}`, 1_500_000n]])),
    spend(
      `${prefix}mix`,
      2_000,
      [e[0]!, p[1]!, p[2]!, p[3]!, p[4]!],
      Array.from({ length: 5 }, (_, i): [string, bigint] => [`${prefix}post${i}`, 1_000_000n]),
    ),
    spend(`${prefix}p1own`, 3_000, [p[1]!, p[0]!], [[`${prefix}elsewhere`, 1_900_000n]]),
  ];
  return { e, p, txs };
}

const never = new AbortController().signal;

describe('cluster expansion (bitcoin, common inputs)', () => {
  test('when a wallet met strangers in a CoinJoin, then expanding it joins its own addresses only', async () => {
    const chain = freshChain();
    const { e, p, txs } = economy('a-');
    const { client } = fakeBitcoin(txs);
    const run = await expandCluster({ store, client, chain, address: e[0]!, maxCalls: 50, signal: never });
    expect(run).toEqual({ cluster: { id: expect.any(Number), size: 6, partial: false }, calls: 6, merged: 5 });
    expect((await store.clusterOf(chain, e[0]!, { members: 20 }))?.members).toEqual([...e].sort());
    for (const stranger of p) expect((await store.clusterOf(chain, stranger))?.id).not.toBe(run.cluster.id);

    // A participant's own cluster is its own spends, not the mix's other inputs.
    const theirs = await expandCluster({ store, client, chain, address: p[1]!, maxCalls: 50, signal: never });
    expect(theirs.cluster).toEqual({ id: expect.any(Number), size: 2, partial: false });
    expect(theirs.cluster.id).not.toBe(run.cluster.id);
    expect(await store.explain(chain, e[0]!, p[1]!)).toBeNull();
    expect(await store.explain(chain, p[1]!, p[2]!)).toBeNull();
    const why = await store.explain(chain, e[0]!, e[3]!);
    expect(why?.map((s) => s.txid)).toEqual(['a-t0', 'a-t1', 'a-t2']);
  });

  test(
    'when the call budget runs out, ' +
      'then the cluster is partial, and a second expansion continues where the first stopped',
    async () => {
      const chain = freshChain();
      const { e, txs } = economy('b-');
      const { client, calls } = fakeBitcoin(txs);
      const first = await expandCluster({ store, client, chain, address: e[0]!, maxCalls: 2, signal: never });
      expect(first).toEqual({ cluster: { id: expect.any(Number), size: 3, partial: true }, calls: 2, merged: 2 });
      expect(await store.unexpanded(chain, first.cluster.id!, 10)).toEqual([e[2]]);

      const second = await expandCluster({ store, client, chain, address: e[0]!, maxCalls: 50, signal: never });
      expect(second).toEqual({ cluster: { id: first.cluster.id, size: 6, partial: false }, calls: 4, merged: 3 });
      // Together they read each address once: what one unbounded expansion reads.
      expect(calls()).toBe(6);
      const third = await expandCluster({ store, client, chain, address: e[4]!, maxCalls: 50, signal: never });
      expect(third).toEqual({ cluster: second.cluster, calls: 0, merged: 0 });
    },
  );

  test(
    'when the budget is zero, the signal aborts mid-way or a read is truncated, ' + 'then the answer says partial',
    async () => {
      const { e, txs } = economy('c-');
      const zero = await expandCluster({
        store,
        client: fakeBitcoin(txs).client,
        chain: freshChain(),
        address: e[0]!,
        maxCalls: 0,
        signal: never,
      });
      expect(zero).toEqual({ cluster: { id: null, size: 1, partial: true }, calls: 0, merged: 0 });

      const controller = new AbortController();
      const aborting = fakeBitcoin(txs, (n) => {
        if (n === 3) controller.abort();
      });
      const chain = freshChain();
      const cut = await expandCluster({
        store,
        client: aborting.client,
        chain,
        address: e[0]!,
        maxCalls: 50,
        signal: controller.signal,
      });
      expect(cut).toEqual({ cluster: { id: expect.any(Number), size: 3, partial: true }, calls: 3, merged: 2 });

      const short = await expandCluster({
        store,
        client: fakeBitcoin(txs).client,
        chain: freshChain(),
        address: e[0]!,
        maxCalls: 50,
        pageLimit: 1,
        signal: never,
      });
      // e0's newest transaction is the mix: its page of one holds no link, and says there is more.
      expect(short.cluster).toEqual({ id: expect.any(Number), size: 1, partial: true });
    },
  );

  test('when 20 screenings expand the same cluster at once, then they end with one consistent cluster', async () => {
    const chain = freshChain();
    const { e, txs } = economy('d-');
    const { client } = fakeBitcoin(txs);
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        expandCluster({ store, client, chain, address: e[i % e.length]!, maxCalls: 50, signal: never }),
      ),
    );
    const ids = new Set(runs.map((r) => r.cluster.id));
    expect(ids.size).toBe(1);
    const id = [...ids][0]!;
    expect(runs.reduce((sum, r) => sum + r.merged, 0)).toBe(5);
    expect(await clusterRow(id)).toMatchObject({ size: 6, merged_into: null });
    expect(await countRows('SELECT count(*)::int AS n FROM cluster_links WHERE chain = $1', [chain])).toBe(5);
    expect(await store.clusterOf(chain, e[5]!)).toMatchObject({ id, size: 6, partial: false });
  });

  test(
    'when the chain client reads no transactions of an address, ' +
      'then the address is a singleton with nothing to expand',
    async () => {
      const client = { chain: 'ripple', normalizeAddress: (a: string) => a } as unknown as ChainClient;
      const run = await expandCluster({
        store,
        client,
        chain: freshChain('ripple'),
        address: 'rX',
        maxCalls: 5,
        signal: never,
      });
      expect(run).toEqual({ cluster: { id: null, size: 1, partial: false }, calls: 0, merged: 0 });
    },
  );
});

/** An account-chain client over a ledger of transfers; `contracts` are the addresses with code. */
function fakeAccounts(
  ledger: { txid: string; from: string; to: string; amount: bigint; at: number }[],
  contracts: string[],
) {
  let calls = 0;
  const transfersOf = (address: string): AddressTransfer[] =>
    ledger
      .filter((t) => t.from === address || t.to === address)
      .sort((p, q) => q.at - p.at)
      .map((t) => ({
        txid: t.txid,
        timestamp: t.at,
        direction: t.from === address ? ('out' as const) : ('in' as const),
        counterparty: t.from === address ? t.to : t.from,
        asset: ETH,
        amount: t.amount,
      }));
  const client = {
    chain: 'ethereum',
    nativeAsset: ETH,
    normalizeAddress: (a: string) => a,
    getTransaction: async () => null,
    async getAddressFacts(address: string): Promise<AddressFacts> {
      calls++;
      return {
        address,
        isContract: contracts.includes(address),
        nativeBalance: 0n,
        tokenBalances: [],
        outgoingCount: 0,
        transferSummary: null,
      };
    },
    async getAddressTransfers(address: string, { limit }: { limit: number }) {
      calls++;
      const all = transfersOf(address);
      return { transfers: all.slice(0, limit), truncated: all.length > limit };
    },
  } as unknown as ChainClient;
  return { client, calls: () => calls };
}

/** An exchange: customers pay deposit addresses d1..d3, swept to hot wallet h, which pays withdrawals out. */
function exchange(prefix: string) {
  const a = (name: string) => `0x${prefix}${name}`;
  const T = 1_700_000_000;
  const ether = 10n ** 18n;
  let n = 0;
  const t = (from: string, to: string, amount: bigint, at: number) => ({
    txid: `0x${prefix}tx${n++}`,
    from: a(from),
    to: a(to),
    amount,
    at,
  });
  const ledger = [
    t('employer', 'c1', 3n * ether, T - 7_200),
    t('c1', 'd1', 3n * ether, T),
    t('c2', 'd1', 2n * ether, T + 60),
    t('d1', 'h', 4_999n * (ether / 1_000n), T + 1_800),
    t('c3', 'd2', 7n * ether, T + 100),
    t('d2', 'h', 6_999n * (ether / 1_000n), T + 2_000),
    t('c4', 'd3', 1n * ether, T + 200),
    t('d3', 'h', 999n * (ether / 1_000n), T + 2_400),
    t('h', 'w1', 5n * ether, T + 5_000),
    t('h', 'w2', 2n * ether, T + 6_000),
    // A mixer pool (a contract): the user forwards all it received to it within the hour.
    t('c5', 'u', 10n * ether, T),
    t('u', 'pool', 10n * ether, T + 900),
    // Others use the pool too: it collects from many, so only the contract check keeps u out of it.
    t('c6', 'pool', 1n * ether, T + 1_000),
  ];
  return { a, ledger, contracts: [a('pool')] };
}

describe('cluster expansion (account chains, deposit addresses)', () => {
  test(
    'when deposit addresses sweep to one hot wallet, ' + 'then they join its cluster, and their customers do not',
    async () => {
      const chain = freshChain('ethereum');
      const { a, ledger, contracts } = exchange('e1');
      const { client } = fakeAccounts(ledger, contracts);
      const run = await expandCluster({ store, client, chain, address: a('d1'), maxCalls: 50, signal: never });
      // d1 (1), h (1), h is no contract (1), then h's other senders d2 and d3 (1 each).
      expect(run).toEqual({ cluster: { id: expect.any(Number), size: 4, partial: false }, calls: 5, merged: 3 });
      expect((await store.clusterOf(chain, a('d2')))?.id).toBe(run.cluster.id);
      expect((await store.clusterOf(chain, a('h'), { members: 10 }))?.members).toEqual(
        [a('d1'), a('d2'), a('d3'), a('h')].sort(),
      );
      const why = await store.explain(chain, a('d2'), a('d1'));
      expect(why?.map((s) => [s.from, s.to, s.heuristic])).toEqual([
        [a('d2'), a('h'), 'deposit_address'],
        [a('h'), a('d1'), 'deposit_address'],
      ]);
      expect(why?.[0]?.txid).toBe(ledger.find((t) => t.from === a('d2'))?.txid);

      // A customer who paid everything into its deposit address is not the exchange's.
      const customer = await expandCluster({ store, client, chain, address: a('c1'), maxCalls: 50, signal: never });
      expect(customer.cluster).toEqual({ id: expect.any(Number), size: 1, partial: false });
      expect(customer.merged).toBe(0);
    },
  );

  test(
    'when an address forwards all it got to a contract (a mixer pool), ' + 'then it is not merged with the contract',
    async () => {
      const chain = freshChain('ethereum');
      const { a, ledger, contracts } = exchange('e2');
      const { client } = fakeAccounts(ledger, contracts);
      const run = await expandCluster({ store, client, chain, address: a('u'), maxCalls: 50, signal: never });
      expect(run).toEqual({ cluster: { id: expect.any(Number), size: 1, partial: false }, calls: 3, merged: 0 });
      expect(await store.clusterOf(chain, a('pool'))).toBeNull();
    },
  );

  test(
    'when the budget ends while a hot wallet’s senders are being checked, ' + 'then the cluster is partial',
    async () => {
      const chain = freshChain('ethereum');
      const { a, ledger, contracts } = exchange('e3');
      const { client } = fakeAccounts(ledger, contracts);
      const run = await expandCluster({ store, client, chain, address: a('d1'), maxCalls: 4, signal: never });
      expect(run).toEqual({ cluster: { id: expect.any(Number), size: 3, partial: true }, calls: 4, merged: 2 });
    },
  );
});
