/**
 * The simulated economy of the entities benchmark (P12), run on a real btcd (regtest, --addrindex) through the test
 * wallet helper: the seeded plan (economy-plan.ts) becomes real signed transactions, and the ground truth records
 * every address's true owner and every transaction whole (its real txid, inputs and outputs).
 *
 * Seeds: TUNING_SEED is the scenario the benchmark was developed and checked on. HELD_OUT_SEED is a scenario of its
 * own that was never looked at while the economy, the heuristics or their thresholds were chosen: its figures are
 * reported beside the tuning seed's, never tuned on. Change nothing because of what HELD_OUT_SEED shows.
 */
import type { BitcoinNode, Utxo } from '../../test/helpers/btcd';
import { ENTITY, type EconomyPlan, MINER, planEconomy, vsize } from './economy-plan';
import type { GroundTruth, TruthTx } from './ground-truth';

export const TUNING_SEED = 0x5eed_0001;
/** Never tuned on (see above). */
export const HELD_OUT_SEED = 0x0b5e_77ed;

/** Blocks are mined every this many transactions, so the address index sees confirmed transactions throughout. */
export const MINE_EVERY = 20;

export interface Economy {
  seed: number;
  plan: EconomyPlan;
  truth: GroundTruth;
  /** Owner name of the sanctioned entity in `truth.owners`. */
  entityOwner: string;
  /** The one entity address given the `sanctions` label. */
  labelled: string;
  /** Real txid of each planned transaction (plan order). */
  txids: string[];
  blocks: number;
  buildMs: number;
}

export async function buildEconomy(
  node: BitcoinNode,
  options: { seed: number; wallets: number; steps?: number; progress?: (line: string) => void },
): Promise<Economy> {
  const started = Date.now();
  const plan = planEconomy({ seed: options.seed, wallets: options.wallets, steps: options.steps });
  const wallet = node.wallet;
  const real = new Map<string, string>();
  const owners = new Map<string, string>([[wallet.minerAddress, MINER]]);
  const addressOf = (symbolic: string): string => {
    let a = real.get(symbolic);
    if (a === undefined) {
      const owner = plan.owners.get(symbolic);
      if (owner === undefined) throw new Error(`no owner planned for ${symbolic}`);
      a = wallet.newAddress(owner);
      real.set(symbolic, a);
      owners.set(a, owner);
    }
    return a;
  };
  const txids: string[] = [];
  const txs: TruthTx[] = [];
  let blocks = 0;
  for (const [i, planned] of plan.txs.entries()) {
    const outputs = planned.outputs.map((o) => ({ address: addressOf(o.address), value: o.value }));
    let inputs: Utxo[];
    let fee: bigint;
    let change: string | undefined;
    if (planned.inputs.length === 0) {
      // Funding: the miner's matured coins, largest first, change back to the miner's address.
      const need = outputs.reduce((s, o) => s + o.value, 0n);
      const coins = wallet.utxosOf(MINER).sort((a, b) => (b.value > a.value ? 1 : b.value < a.value ? -1 : 0));
      inputs = [];
      let held = 0n;
      for (const c of coins) {
        if (held >= need + 100_000n) break;
        inputs.push(c);
        held += c.value;
      }
      fee = BigInt(vsize(inputs.length, outputs.length + 1)) * 5n;
      change = wallet.minerAddress;
    } else {
      inputs = planned.inputs.map((c) => {
        const txid = txids[c.tx];
        if (txid === undefined) throw new Error(`planned tx ${i} spends tx ${c.tx}, not broadcast yet`);
        const address = addressOf(c.address);
        return { txid, vout: c.vout, value: c.value, address, owner: owners.get(address) as string };
      });
      fee = inputs.reduce((s, x) => s + x.value, 0n) - outputs.reduce((s, o) => s + o.value, 0n);
    }
    const sent = await wallet.spend({ inputs, outputs, fee, change });
    txids.push(sent.txid);
    const changeOut = sent.utxos.slice(outputs.length);
    txs.push({
      txid: sent.txid,
      kind: planned.kind,
      inputs: inputs.map((x) => ({ address: x.address, value: x.value })),
      outputs: [
        ...planned.outputs.map((o, vout) => ({ address: outputs[vout]!.address, value: o.value, change: o.change })),
        ...changeOut.map((u) => ({ address: u.address, value: u.value, change: true })),
      ],
    });
    for (const u of changeOut) owners.set(u.address, wallet.ownerOf(u.address) ?? 'external');
    if ((i + 1) % MINE_EVERY === 0) {
      await wallet.mine(1);
      blocks++;
    }
    if (options.progress && (i + 1) % 250 === 0)
      options.progress(`economy ${options.seed}: ${i + 1}/${plan.txs.length} txs`);
  }
  await wallet.mine(1);
  blocks++;
  const labelled = real.get(plan.labelled);
  if (!labelled) throw new Error('the labelled entity address never reached the chain');
  return {
    seed: options.seed,
    plan,
    truth: { owners, txs },
    entityOwner: ENTITY,
    labelled,
    txids,
    blocks,
    buildMs: Date.now() - started,
  };
}
