/**
 * P12's speed figures: union-find merges per second in process beside the Postgres store's, and the time to build a
 * 10,000-address cluster through node calls (expandCluster + store on a real btcd) beside the same number of bare
 * searchrawtransactions calls.
 */
import type { Pool } from 'pg';
import { type ClusterLink, type ClusterStore, expandCluster, UnionFind } from '../../src/entities';
import { createBitcoinRpcClient } from '../../src/screening/chains/bitcoin-rpc-client';
import { startBitcoinNode, type Utxo } from '../../test/helpers/btcd';
import { mulberry32 } from './prng';

export interface RateResult {
  merges: number;
  ms: number;
  perSecond: number;
}

/** `unions` random unions over `keys` string keys in the in-memory UnionFind. */
export function inProcessUnionFind(keys: number, unions: number, seed: number): RateResult {
  const rng = mulberry32(seed);
  const names = Array.from({ length: keys }, (_, i) => `k${i}`);
  const pairs = new Uint32Array(unions * 2);
  for (let i = 0; i < pairs.length; i++) pairs[i] = Math.floor(rng.next() * keys);
  const uf = new UnionFind();
  const started = performance.now();
  let merges = 0;
  for (let i = 0; i < unions; i++) if (uf.union(names[pairs[2 * i]!]!, names[pairs[2 * i + 1]!]!)) merges++;
  const ms = performance.now() - started;
  return { merges, ms, perSecond: (merges / ms) * 1000 };
}

/**
 * The Postgres store's applyLinks on random links over `keys` addresses, in batches (as an expansion applies one
 * member's links at a time, batches are small). Written under a chain name of its own, removed afterwards.
 */
export async function storeUnionFind(
  pool: Pool,
  store: ClusterStore,
  options: { keys: number; links: number; batch: number; seed: number },
): Promise<RateResult> {
  const rng = mulberry32(options.seed);
  const chain = `p12-union-find-${process.pid}`;
  const link = (): ClusterLink => ({
    a: `k${rng.int(0, options.keys - 1)}`,
    b: `k${rng.int(0, options.keys - 1)}`,
    heuristic: 'common_input',
    txid: 'p12-bench',
  });
  const batches = Array.from({ length: Math.ceil(options.links / options.batch) }, () =>
    Array.from({ length: options.batch }, link),
  );
  try {
    const started = performance.now();
    let merges = 0;
    for (const b of batches) merges += (await store.applyLinks(chain, b)).merged;
    const ms = performance.now() - started;
    return { merges, ms, perSecond: (merges / ms) * 1000 };
  } finally {
    await pool.query('DELETE FROM cluster_links WHERE chain = $1', [chain]);
    await pool.query('DELETE FROM cluster_addresses WHERE chain = $1', [chain]);
    await pool.query('DELETE FROM clusters WHERE chain = $1', [chain]);
  }
}

export interface BigClusterResult {
  addresses: number;
  clusterSize: number;
  partial: boolean;
  calls: number;
  buildChainMs: number;
  expandMs: number;
  bareMs: number;
}

/**
 * One owner's `fundings` × `perFunding` addresses on a fresh btcd: funding transactions of `perFunding` outputs, then
 * one consolidation per funding transaction spending its outputs plus the previous consolidation's output, paid back to
 * its first input's address (so every address is one owner by common input). Then expandCluster from the first address,
 * and the bare calls.
 */
export async function bigCluster(
  store: ClusterStore,
  options: { fundings: number; perFunding: number; progress: (line: string) => void },
): Promise<BigClusterResult> {
  const node = await startBitcoinNode({ seed: 'p12-big-cluster' });
  try {
    const started = Date.now();
    const w = node.wallet;
    const owner = 'whale';
    const funded: Utxo[][] = [];
    for (let f = 0; f < options.fundings; f++) {
      const payments = Array.from({ length: options.perFunding }, () => ({
        address: w.newAddress(owner),
        value: 1_000_000n,
      }));
      const sent = await w.fundMany(payments);
      funded.push(sent.utxos.slice(0, options.perFunding));
      if ((f + 1) % 10 === 0) await w.mine(1);
    }
    await w.mine(1);
    let previous: Utxo | null = null;
    for (const [k, coins] of funded.entries()) {
      const inputs: Utxo[] = previous ? [...coins, previous] : [...coins];
      const held = inputs.reduce((s, c) => s + c.value, 0n);
      const fee = BigInt(11 + 68 * inputs.length + 31) * 2n;
      // Back to its first input's address: the next consolidation spends a coin of an address this one spent from,
      // which is what joins the two input sets (a fresh output address would leave each consolidation apart).
      const sent = await w.spend({ inputs, outputs: [{ address: inputs[0]!.address, value: held - fee }], fee });
      previous = sent.utxos[0]!;
      if ((k + 1) % 10 === 0) await w.mine(1);
    }
    await w.mine(1);
    const buildChainMs = Date.now() - started;
    const addresses = w.addressesOf(owner);
    options.progress(
      `P12: ${addresses.length} addresses of one owner on btcd in ${(buildChainMs / 1000).toFixed(1)} s`,
    );

    const client = createBitcoinRpcClient({
      rpcUrl: node.rpcUrl,
      network: 'regtest',
      requestTimeoutMs: 30_000,
      ratePerSecond: 1_000_000,
    });
    const first = addresses[0]!;
    const t0 = performance.now();
    const grown = await expandCluster({
      store,
      client,
      chain: 'bitcoin',
      address: first,
      maxCalls: addresses.length + 1_000,
      signal: AbortSignal.timeout(30 * 60_000),
    });
    const expandMs = performance.now() - t0;

    // The baseline: the same number of bare searchrawtransactions calls (same parameters as the client's), no store.
    const t1 = performance.now();
    for (let i = 0; i < grown.calls; i++)
      await node.rpc('searchrawtransactions', [addresses[i % addresses.length], 1, 0, 100, 1, true]);
    const bareMs = performance.now() - t1;
    return {
      addresses: addresses.length,
      clusterSize: grown.cluster.size,
      partial: grown.cluster.partial,
      calls: grown.calls,
      buildChainMs,
      expandMs,
      bareMs,
    };
  } finally {
    await node.stop();
  }
}
