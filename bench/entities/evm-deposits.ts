/**
 * P12's EVM part: the deposit-address heuristic (Victor 2020) on a real anvil, read through the service's EVM client
 * (Otterscan ots_ transaction search on anvil). An exchange's hot wallet, 50 deposit addresses that receive from
 * customers and forward at least 99 % to the hot wallet within an hour, and 50 ordinary addresses: 35 that receive and
 * pay several people (some pay the hot wallet too, as a customer may), 10 that forward everything to one address days
 * later, and 5 that forward everything to the hot wallet within an hour (they look exactly like deposit addresses: the
 * errors the heuristic cannot avoid). Customers are funded from anvil's default account; some send their whole balance
 * to one deposit address (a customer shaped like a deposit address must not become the exchange).
 *
 * Scored: every scenario address is expanded (expandCluster, the store, a large budget); the addresses in the hot
 * wallet's cluster are its attributed deposit addresses. Baseline: the naive rule "sent to the hot wallet".
 */
import type { Pool } from 'pg';
import { type ClusterStore, expandCluster } from '../../src/entities';
import { createEvmChainClient } from '../../src/screening/chains/evm-client';
import { rpc, sendNative, startAnvil } from '../../test/helpers/anvil';
import { mulberry32 } from './prng';

const ETH = 10n ** 18n;
const MINUTE = 60;
const DAY = 86_400;

export interface DepositScore {
  deposits: number;
  ordinary: number;
  attributed: number;
  correct: number;
  precision: number;
  recall: number;
  naive: { attributed: number; correct: number; precision: number; recall: number };
  calls: number;
  txs: number;
  ms: number;
}

export async function measureEvmDeposits(
  pool: Pool,
  store: ClusterStore,
  options: { seed: number; progress: (line: string) => void },
): Promise<DepositScore> {
  const started = Date.now();
  const rng = mulberry32(options.seed);
  const node = await startAnvil({ chainId: 1 });
  // Mainnet's 12 s between blocks: anvil would otherwise stamp consecutive blocks with the same second, and a receipt
  // and the forward before it would look simultaneous.
  await rpc(node.rpcUrl, 'anvil_setBlockTimestampInterval', [12]);
  const address = () => `0x${Buffer.from(Array.from({ length: 20 }, () => rng.int(0, 255))).toString('hex')}`;
  let txs = 0;
  const send = async (from: string | undefined, to: string, wei: bigint) => {
    txs++;
    return sendNative({ rpcUrl: node.rpcUrl, from, to, valueWei: wei });
  };
  const wait = async (seconds: number) => {
    await rpc(node.rpcUrl, 'evm_increaseTime', [seconds]);
    await rpc(node.rpcUrl, 'evm_mine', []);
  };
  const eth = (lo: number, hi: number) => BigInt(Math.round((lo + rng.next() * (hi - lo)) * 1e6)) * 10n ** 12n;
  const forwardShare = (received: bigint) => (received * BigInt(rng.int(9_900, 10_000))) / 10_000n;
  try {
    const hot = address();
    const deposits = Array.from({ length: 50 }, address);
    const customers = Array.from({ length: 60 }, address);
    const spenders = Array.from({ length: 35 }, address);
    const savers = Array.from({ length: 10 }, address);
    const directPayers = Array.from({ length: 5 }, address);
    const ordinary = [...spenders, ...savers, ...directPayers];
    const sentToHot = new Set<string>();

    for (const c of customers) await send(undefined, c, 20n * ETH);
    options.progress(`P12 EVM: ${customers.length} customers funded`);

    // Deposits: 1-3 customer receipts, then a forward of 99-100 % to the hot wallet 10-50 minutes later; a third of
    // the deposit addresses are used twice.
    const allIn = new Set(rng.sample(customers, 10));
    for (const d of deposits) {
      for (let round = rng.chance(0.33) ? 2 : 1; round > 0; round--) {
        let received = 0n;
        for (let k = rng.int(1, 3); k > 0; k--) {
          const customer = rng.pick(customers);
          // An all-in customer pays its whole remaining balance (less gas) once, to one deposit address.
          const value = allIn.has(customer) ? 19n * ETH : eth(0.1, 2);
          if (allIn.has(customer)) allIn.delete(customer);
          await send(customer, d, value);
          received += value;
        }
        await wait(rng.int(10, 50) * MINUTE);
        await send(d, hot, forwardShare(received));
        sentToHot.add(d);
      }
    }
    options.progress('P12 EVM: deposits forwarded');

    // Ordinary spenders: 2-3 receipts, 2-4 payments to different people (30 %: one of them the hot wallet).
    for (const s of spenders) {
      for (let k = rng.int(2, 3); k > 0; k--) await send(rng.pick(customers), s, eth(0.5, 2));
      await wait(rng.int(1, 30) * MINUTE);
      const payees = rng.sample([...customers, ...spenders.filter((x) => x !== s)], rng.int(2, 4));
      if (rng.chance(0.3)) {
        payees[0] = hot;
        sentToHot.add(s);
      }
      for (const p of payees) await send(s, p, eth(0.05, 0.4));
    }
    // Savers: everything to one address, two to three days later.
    const saved: [string, bigint][] = [];
    for (const s of savers) {
      let received = 0n;
      for (let k = rng.int(1, 2); k > 0; k--) {
        const value = eth(0.5, 2);
        await send(rng.pick(customers), s, value);
        received += value;
      }
      saved.push([s, received]);
    }
    await wait(rng.int(2 * DAY, 3 * DAY));
    for (const [s, received] of saved) await send(s, rng.pick(spenders), forwardShare(received));
    // Direct payers: everything to the hot wallet within the hour (deposit-shaped).
    for (const p of directPayers) {
      const value = eth(0.5, 2);
      await send(rng.pick(customers), p, value);
      await wait(rng.int(5, 50) * MINUTE);
      await send(p, hot, forwardShare(value));
      sentToHot.add(p);
    }
    options.progress(`P12 EVM: ${txs} transactions on anvil; expanding every address`);

    const client = createEvmChainClient({ chain: 'ethereum', rpcUrl: node.rpcUrl, requestTimeoutMs: 30_000 });
    const chain = `ethereum-p12-${process.pid}`;
    let calls = 0;
    try {
      for (const a of [hot, ...deposits, ...ordinary, ...customers]) {
        const r = await expandCluster({
          store,
          client,
          chain,
          address: a,
          maxCalls: 10_000,
          pageLimit: 500,
          signal: AbortSignal.timeout(120_000),
        });
        calls += r.calls;
      }
      const hotCluster = await store.clusterOf(chain, hot, { members: 10_000 });
      const members = new Set((hotCluster?.members ?? []).filter((m) => m !== hot));
      const truth = new Set(deposits);
      const correct = [...members].filter((m) => truth.has(m)).length;
      const naiveCorrect = [...sentToHot].filter((m) => truth.has(m)).length;
      return {
        deposits: deposits.length,
        ordinary: ordinary.length,
        attributed: members.size,
        correct,
        precision: members.size === 0 ? Number.NaN : correct / members.size,
        recall: correct / deposits.length,
        naive: {
          attributed: sentToHot.size,
          correct: naiveCorrect,
          precision: naiveCorrect / sentToHot.size,
          recall: naiveCorrect / deposits.length,
        },
        calls,
        txs,
        ms: Date.now() - started,
      };
    } finally {
      await pool.query('DELETE FROM cluster_links WHERE chain = $1', [chain]);
      await pool.query('DELETE FROM cluster_addresses WHERE chain = $1', [chain]);
      await pool.query('DELETE FROM clusters WHERE chain = $1', [chain]);
    }
  } finally {
    await node.stop();
  }
}
