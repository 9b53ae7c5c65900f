/**
 * A seeded plan of a small Bitcoin economy with KNOWN OWNERS (pure: no node here; economy.ts runs it on btcd).
 *
 * Owners: ordinary wallets (`wallet-000`…), one exchange (a fresh deposit address per customer deposit, sweeps of
 * many deposit addresses into reused hot-wallet addresses, withdrawals from them), a "sanctioned" entity of exactly 50
 * addresses, and the miner that funds everyone. Behaviours follow the published ones (entities notes):
 * - payments spend 1-3 of the payer's coins, pay another wallet (its reused receive address or a fresh one) and send
 *   the change to a fresh address of the payer; a few "legacy" wallets send their change back to the first input
 *   address instead (Meiklejohn 2013 saw that in 23 % of transactions); half the amounts are round (BTC-quoted);
 * - consolidations spend several coins of one wallet to one fresh address;
 * - peel chains: a wallet pays many small amounts out of one large coin, the change to a fresh address each step;
 * - CoinJoins of 5 to 100 participants, every participant an ordinary wallet: Whirlpool (a tx0 premix each, then 5
 *   inputs to 5 equal outputs), JoinMarket (n equal outputs plus each participant's change) and Wasabi-like rounds
 *   (many inputs, outputs in a few standard denominations repeated across participants);
 * - the sanctioned entity receives (from the miner and from victims, some on one reused public address, most on a
 *   fresh address per victim), spends with multi-input transactions whose change goes back to the first input
 *   address (a service wallet's address reuse: what lets common-input ownership join its spends into one entity),
 *   consolidates, and pays ordinary wallets and exchange deposit addresses.
 *
 * Addresses are symbolic here (`owner#n`); the executor maps each to a real key of that owner. Values are satoshis.
 */
import type { Rng } from './prng';
import { mulberry32 } from './prng';
import type { TxKind } from './ground-truth';

export const MINER = 'miner';
export const EXCHANGE = 'exchange';
export const ENTITY = 'sanctioned-entity';
export const ENTITY_ADDRESSES = 50;

/** A coin the plan can spend: an output of planned transaction `tx` (index into the plan), or of a funding one. */
export interface PlannedCoin {
  tx: number;
  vout: number;
  address: string;
  value: bigint;
}

export interface PlannedOutput {
  address: string;
  value: bigint;
  change: boolean;
}

/** A transaction of the plan. `inputs` empty: a funding transaction the executor pays from the miner's coins. */
export interface PlannedTx {
  kind: TxKind;
  inputs: PlannedCoin[];
  outputs: PlannedOutput[];
}

export interface EconomyPlan {
  seed: number;
  txs: PlannedTx[];
  /** Symbolic address → owner (the miner's funding addresses are the executor's, recorded when it runs). */
  owners: Map<string, string>;
  wallets: string[];
  /** The entity address given the custom `sanctions` label (never its reused public address). */
  labelled: string;
  /** The entity's reused public address. */
  entityPublic: string;
  coinjoins: { kind: TxKind; participants: number }[];
}

export interface EconomyOptions {
  seed: number;
  wallets: number;
  /** Activity steps after funding (each about one transaction); default 5 per wallet. */
  steps?: number;
  /** Participants of the Wasabi-like rounds; the largest is the biggest CoinJoin (at most 100 and the wallets). */
  wasabiSizes?: number[];
  joinMarketSizes?: number[];
  whirlpools?: number;
  peelChains?: number;
  feeRateSatPerVb?: number;
}

const BTC = 100_000_000n;
const ROUND = 10_000n;
const MIN_OUTPUT = 20_000n;
/** Whirlpool pool sizes (Samourai's 0.01 and 0.05 BTC pools; the 0.001 pool is under the crawl's dust value). */
const WHIRLPOOL_DENOMS = [1_000_000n, 5_000_000n];
/** Wasabi-like standard denominations (1-2-5 series, 0.005 to 5 BTC). */
const WASABI_DENOMS = [
  500_000_000n,
  200_000_000n,
  100_000_000n,
  50_000_000n,
  20_000_000n,
  10_000_000n,
  5_000_000n,
  2_000_000n,
  1_000_000n,
  500_000n,
];

/** p2wpkh virtual size: 10.5 vB overhead, 68 vB per input, 31 vB per output. */
export const vsize = (inputs: number, outputs: number) => Math.ceil(10.5 + 68 * inputs + 31 * outputs);

const sum = (coins: readonly { value: bigint }[]) => coins.reduce((s, c) => s + c.value, 0n);

export function planEconomy(options: EconomyOptions): EconomyPlan {
  const rng = mulberry32(options.seed);
  const feeRate = BigInt(options.feeRateSatPerVb ?? 5);
  const fee = (inputs: number, outputs: number) => BigInt(vsize(inputs, outputs)) * feeRate;
  const walletCount = options.wallets;
  const steps = options.steps ?? walletCount * 5;
  const wallets = Array.from({ length: walletCount }, (_, i) => `wallet-${String(i).padStart(3, '0')}`);

  const owners = new Map<string, string>();
  const counters = new Map<string, number>();
  const fresh = (owner: string): string => {
    const n = counters.get(owner) ?? 0;
    counters.set(owner, n + 1);
    const address = `${owner}#${n}`;
    owners.set(address, owner);
    return address;
  };
  const coins = new Map<string, PlannedCoin[]>();
  const coinsOf = (owner: string) => {
    let list = coins.get(owner);
    if (!list) {
      list = [];
      coins.set(owner, list);
    }
    return list;
  };
  const txs: PlannedTx[] = [];
  const emit = (tx: PlannedTx): number => {
    const index = txs.length;
    txs.push(tx);
    tx.outputs.forEach((o, vout) => {
      const owner = owners.get(o.address);
      if (owner === undefined) throw new Error(`planned output to an unowned address ${o.address}`);
      coinsOf(owner).push({ tx: index, vout, address: o.address, value: o.value });
    });
    return index;
  };
  const take = (owner: string, picked: readonly PlannedCoin[]) => {
    const list = coinsOf(owner);
    for (const c of picked) list.splice(list.indexOf(c), 1);
  };

  // Per-wallet habits: a reused receive address (payers use it 40 % of the time); for 15 % of the wallets, change
  // back to the first input address; for 10 %, change to their own reused receive address (a used address that is not
  // an input: what makes one-time change guess wrong when the payee's address is the fresh one).
  const receive = new Map<string, string>();
  const receiveOf = (wallet: string): string => {
    let a = receive.get(wallet);
    if (!a) {
      a = fresh(wallet);
      receive.set(wallet, a);
    }
    return a;
  };
  const habit = new Map<string, 'input' | 'receive' | 'fresh'>(
    wallets.map((w) => {
      const r = rng.next();
      return [w, r < 0.15 ? 'input' : r < 0.25 ? 'receive' : 'fresh'];
    }),
  );
  const payeeAddress = (wallet: string): string => (rng.chance(0.4) ? receiveOf(wallet) : fresh(wallet));
  const changeAddressOf = (payer: string, firstInput: string): string => {
    const h = habit.get(payer);
    if (h === 'input') return firstInput;
    if (h === 'receive') return receiveOf(payer);
    return fresh(payer);
  };
  const amountOf = (max: bigint, min: bigint): bigint => {
    if (max <= min) return min;
    let a = min + BigInt(Math.floor(rng.next() * Number(max - min)));
    if (rng.chance(0.5)) a = (a / ROUND) * ROUND;
    return a < min ? min : a;
  };
  const logUniform = (lo: number, hi: number) =>
    BigInt(Math.round(Math.exp(Math.log(lo) + rng.next() * (Math.log(hi) - Math.log(lo))) * 1e8));

  // ---- Funding from the miner: 1-3 coins per wallet, peel-chain sources, the exchange's float, the entity's start.
  const funding: PlannedOutput[] = [];
  for (const w of wallets)
    for (let k = rng.int(1, 3); k > 0; k--)
      funding.push({ address: fresh(w), value: logUniform(0.05, 2), change: false });
  const peelWallets = rng.sample(wallets, options.peelChains ?? 5);
  for (const w of peelWallets) funding.push({ address: fresh(w), value: logUniform(8, 15), change: false });
  const hot = [fresh(EXCHANGE), fresh(EXCHANGE), fresh(EXCHANGE)];
  for (const h of hot) funding.push({ address: h, value: 20n * BTC, change: false });
  // The entity: counted so it ends with exactly ENTITY_ADDRESSES addresses.
  let entityCount = 0;
  const entityFresh = (): string | null => {
    if (entityCount >= ENTITY_ADDRESSES) return null;
    entityCount++;
    return fresh(ENTITY);
  };
  const entityPublic = entityFresh() as string;
  for (let k = 0; k < 3; k++)
    funding.push({ address: entityFresh() as string, value: logUniform(3, 6), change: false });
  for (const batch of chunks(rng.shuffle(funding), 60)) emit({ kind: 'funding', inputs: [], outputs: batch });

  // ---- Actions.
  const richWallets = (min: bigint) => wallets.filter((w) => sum(coinsOf(w)) >= min);

  const payment = (payer: string, payeeAddr: string, kind: TxKind, maxShare = 0.9): boolean => {
    const own = coinsOf(payer);
    if (own.length === 0) return false;
    const picked = rng.sample(own, rng.int(1, Math.min(3, own.length)));
    const total = sum(picked);
    const f = fee(picked.length, 2);
    const max = (total * BigInt(Math.round(maxShare * 1000))) / 1000n - f;
    if (max < 2n * MIN_OUTPUT) return false;
    const amount = amountOf(max, MIN_OUTPUT > total / 20n ? MIN_OUTPUT : total / 20n);
    const change = total - amount - f;
    if (change < MIN_OUTPUT) return false;
    const changeAddr = changeAddressOf(payer, picked[0]!.address);
    take(payer, picked);
    const outputs = [
      { address: payeeAddr, value: amount, change: false },
      { address: changeAddr, value: change, change: true },
    ];
    emit({ kind, inputs: picked, outputs: rng.chance(0.5) ? outputs : outputs.reverse() });
    return true;
  };

  const consolidation = (): boolean => {
    const candidates = wallets.filter((w) => coinsOf(w).length >= 3);
    if (candidates.length === 0) return false;
    const w = rng.pick(candidates);
    const own = coinsOf(w);
    const picked = rng.sample(own, rng.int(3, Math.min(8, own.length)));
    const total = sum(picked);
    take(w, picked);
    emit({
      kind: 'consolidation',
      inputs: picked,
      outputs: [{ address: fresh(w), value: total - fee(picked.length, 1), change: true }],
    });
    return true;
  };

  // Exchange: deposits wait for a sweep; withdrawals pay customers from the hot wallets, change back to the same
  // hot address (exchanges reuse them).
  const unswept: string[] = [];
  let sweepAt = rng.int(10, 25);
  const deposit = (customer: string, kind: TxKind = 'deposit'): boolean => {
    const address = fresh(EXCHANGE);
    const done = payment(customer, address, kind);
    if (done) unswept.push(address);
    else owners.delete(address);
    return done;
  };
  const sweep = (force = false) => {
    if (unswept.length < sweepAt && !(force && unswept.length > 0)) return;
    const wanted = new Set(unswept.splice(0));
    const picked = coinsOf(EXCHANGE).filter((c) => wanted.has(c.address));
    if (picked.length === 0) return;
    // Half the sweeps also consolidate a hot-wallet coin (which is what joins one sweep's deposits to the next's).
    const hotCoins = coinsOf(EXCHANGE).filter((c) => hot.includes(c.address));
    if (hotCoins.length > 0 && rng.chance(0.5)) picked.push(rng.pick(hotCoins));
    take(EXCHANGE, picked);
    emit({
      kind: 'sweep',
      inputs: picked,
      outputs: [{ address: rng.pick(hot), value: sum(picked) - fee(picked.length, 1), change: false }],
    });
    sweepAt = rng.int(10, 25);
  };
  const withdrawal = (): boolean => {
    const hotCoins = coinsOf(EXCHANGE).filter((c) => hot.includes(c.address));
    if (hotCoins.length === 0) return false;
    // Usually the largest hot coin; sometimes two coins of different hot addresses (which joins those addresses).
    const sources = [hotCoins.reduce((a, b) => (a.value >= b.value ? a : b))];
    const second = hotCoins.filter((c) => c.address !== sources[0]!.address);
    if (second.length > 0 && rng.chance(0.3)) sources.push(rng.pick(second));
    const customers = rng.sample(wallets, rng.chance(0.3) ? rng.int(2, 5) : 1);
    const outputs: PlannedOutput[] = customers.map((c) => ({
      address: payeeAddress(c),
      value: amountOf(BTC, 1_000_000n),
      change: false,
    }));
    const f = fee(sources.length, outputs.length + 1);
    const change = sum(sources) - sum(outputs) - f;
    if (change < MIN_OUTPUT) return false;
    take(EXCHANGE, sources);
    outputs.splice(rng.int(0, outputs.length), 0, { address: sources[0]!.address, value: change, change: true });
    emit({ kind: 'withdrawal', inputs: sources, outputs });
    return true;
  };

  // Peel chains: each step spends the previous step's change.
  const peels = peelWallets.map((w) => ({ wallet: w, steps: rng.int(10, 20) }));
  const peelStep = (): boolean => {
    const live = peels.filter((p) => p.steps > 0 && coinsOf(p.wallet).some((c) => c.value >= 2n * BTC));
    if (live.length === 0) return false;
    const p = rng.pick(live);
    const source = coinsOf(p.wallet).reduce((a, b) => (a.value >= b.value ? a : b));
    const payee = rng.pick(wallets.filter((w) => w !== p.wallet));
    const amount = amountOf(BTC / 2n, 5_000_000n);
    const f = fee(1, 2);
    take(p.wallet, [source]);
    const outputs = [
      { address: payeeAddress(payee), value: amount, change: false },
      { address: fresh(p.wallet), value: source.value - amount - f, change: true },
    ];
    emit({ kind: 'peel', inputs: [source], outputs: rng.chance(0.5) ? outputs : outputs.reverse() });
    p.steps--;
    return true;
  };

  // CoinJoins.
  const coinjoins: { kind: TxKind; participants: number }[] = [];
  const whirlpool = (): boolean => {
    const denom = rng.pick(WHIRLPOOL_DENOMS);
    const mixFeeShare = fee(5, 5) / 5n + 1n;
    const need = denom + mixFeeShare + fee(1, 2) + MIN_OUTPUT;
    const players = rng.sample(
      wallets.filter((w) => coinsOf(w).some((c) => c.value >= need)),
      5,
    );
    if (players.length < 5) return false;
    const premixes: PlannedCoin[] = [];
    for (const w of players) {
      const source = rng.pick(coinsOf(w).filter((c) => c.value >= need));
      take(w, [source]);
      const premix = fresh(w);
      const outputs = [
        { address: premix, value: denom + mixFeeShare, change: false },
        { address: fresh(w), value: source.value - denom - mixFeeShare - fee(1, 2), change: true },
      ];
      const index = emit({ kind: 'premix', inputs: [source], outputs });
      const coin = coinsOf(w).find((c) => c.tx === index && c.address === premix)!;
      take(w, [coin]);
      premixes.push(coin);
    }
    const spare = sum(premixes) - 5n * denom - fee(5, 5);
    if (spare < 0n) throw new Error('whirlpool premix too small');
    emit({
      kind: 'whirlpool',
      inputs: rng.shuffle(premixes),
      outputs: rng.shuffle(players.map((w) => ({ address: fresh(w), value: denom, change: false }))),
    });
    coinjoins.push({ kind: 'whirlpool', participants: 5 });
    return true;
  };
  const joinMarket = (n: number): boolean => {
    const denom = logUniform(0.05, 0.4);
    const share = fee(2 * n, 2 * n) / BigInt(n) + 1n;
    const players = rng.sample(richWallets(denom + share + MIN_OUTPUT), n);
    if (players.length < n) return false;
    const inputs: PlannedCoin[] = [];
    const outputs: PlannedOutput[] = [];
    for (const w of players) {
      const own = [...coinsOf(w)].sort((a, b) => (b.value > a.value ? 1 : -1));
      const picked: PlannedCoin[] = [];
      while (sum(picked) < denom + share + MIN_OUTPUT) picked.push(own[picked.length]!);
      take(w, picked);
      inputs.push(...picked);
      outputs.push({ address: fresh(w), value: denom, change: false });
      const change = sum(picked) - denom - share;
      outputs.push({ address: fresh(w), value: change, change: true });
    }
    emit({ kind: 'joinmarket', inputs: rng.shuffle(inputs), outputs: rng.shuffle(outputs) });
    coinjoins.push({ kind: 'joinmarket', participants: n });
    return true;
  };
  const wasabi = (n: number): boolean => {
    const min = 2_000_000n;
    const players = rng.sample(richWallets(min + MIN_OUTPUT), n);
    if (players.length < n) return false;
    const inputs: PlannedCoin[] = [];
    const outputs: PlannedOutput[] = [];
    for (const w of players) {
      const own = [...coinsOf(w)].sort((a, b) => (b.value > a.value ? 1 : -1));
      const picked = own.slice(0, rng.int(1, Math.min(2, own.length)));
      while (sum(picked) < min + MIN_OUTPUT) picked.push(own[picked.length]!);
      take(w, picked);
      inputs.push(...picked);
      // Its share of the fee: its inputs and about four outputs.
      let left = sum(picked) - BigInt(68 * picked.length + 4 * 31 + 1) * feeRate;
      let made = 0;
      for (const d of WASABI_DENOMS) {
        while (left >= d && made < 4) {
          outputs.push({ address: fresh(w), value: d, change: false });
          left -= d;
          made++;
        }
      }
      if (left >= MIN_OUTPUT) outputs.push({ address: fresh(w), value: left, change: true });
    }
    emit({ kind: 'wasabi', inputs: rng.shuffle(inputs), outputs: rng.shuffle(outputs) });
    coinjoins.push({ kind: 'wasabi', participants: n });
    return true;
  };

  // The entity: receipts from victims (25 % on its reused public address), multi-input payouts to wallets and to
  // exchange deposit addresses (its public address's coins in most of them), consolidations.
  /** Gives back an entity address a failed action had taken (its number is skipped, never reused). */
  const entityUndo = (address: string) => {
    if (address === entityPublic) return;
    entityCount--;
    owners.delete(address);
  };
  const entityReceipt = (): boolean => {
    const victims = richWallets(50_000_000n);
    if (victims.length === 0) return false;
    const to = rng.chance(0.25) ? entityPublic : (entityFresh() ?? entityPublic);
    const done = payment(rng.pick(victims), to, 'entity-receipt', 0.6);
    if (!done) entityUndo(to);
    return done;
  };
  const entitySpend = (to: string | null, kind: TxKind): boolean => {
    const own = coinsOf(ENTITY);
    if (own.length < 2) return false;
    const publicCoins = own.filter((c) => c.address === entityPublic);
    const others = own.filter((c) => c.address !== entityPublic);
    const picked: PlannedCoin[] = [];
    if (publicCoins.length > 0 && rng.chance(0.7)) picked.push(rng.pick(publicCoins));
    picked.push(
      ...rng.sample(others, Math.max(0, rng.int(2, kind === 'entity-consolidation' ? 6 : 3) - picked.length)),
    );
    if (picked.length < 2) return false;
    const total = sum(picked);
    if (to === null) {
      take(ENTITY, picked);
      emit({
        kind,
        inputs: picked,
        outputs: [{ address: entityFresh() ?? entityPublic, value: total - fee(picked.length, 1), change: true }],
      });
      return true;
    }
    const f = fee(picked.length, 2);
    const amount = amountOf((total * 6n) / 10n, total / 5n);
    const change = total - amount - f;
    if (change < MIN_OUTPUT) return false;
    take(ENTITY, picked);
    const outputs = [
      { address: to, value: amount, change: false },
      { address: picked[0]!.address, value: change, change: true },
    ];
    emit({ kind, inputs: picked, outputs: rng.chance(0.5) ? outputs : outputs.reverse() });
    return true;
  };
  const entityPayout = (): boolean => {
    if (rng.chance(0.3)) {
      const address = fresh(EXCHANGE);
      if (entitySpend(address, 'entity-payout')) {
        unswept.push(address);
        return true;
      }
      owners.delete(address);
      return false;
    }
    return entitySpend(payeeAddress(rng.pick(wallets)), 'entity-payout');
  };

  // The schedule: CoinJoins and entity actions at random steps, ordinary activity in between.
  const wasabiSizes = (options.wasabiSizes ?? [40, 100]).map((n) => Math.min(n, Math.floor(walletCount / 2)));
  const joinMarketSizes = options.joinMarketSizes ?? [5, 7, 10];
  const scheduled = new Map<number, (() => boolean)[]>();
  const at = (step: number, action: () => boolean) => {
    const list = scheduled.get(step) ?? [];
    list.push(action);
    scheduled.set(step, list);
  };
  const window = (from: number, to: number) => rng.int(Math.floor(steps * from), Math.floor(steps * to));
  for (let i = 0; i < (options.whirlpools ?? 3); i++) at(window(0.1, 0.9), whirlpool);
  for (const n of joinMarketSizes) at(window(0.1, 0.9), () => joinMarket(n));
  for (const n of wasabiSizes) at(window(0.2, 0.8), () => wasabi(n));
  for (let i = 0; i < 40; i++) at(window(0.02, 0.85), entityReceipt);
  for (let i = 0; i < 25; i++) at(window(0.05, 0.8), entityPayout);
  for (let i = 0; i < 3; i++) at(window(0.2, 0.8), () => entitySpend(null, 'entity-consolidation'));

  for (let step = 0; step < steps; step++) {
    for (const action of scheduled.get(step) ?? []) {
      // A scheduled action that cannot run now (no coins yet) is retried a few steps later.
      if (!action() && step + 5 < steps) at(step + 5, action);
    }
    const r = rng.next();
    if (r < 0.6) {
      const payer = rng.pick(wallets);
      payment(payer, payeeAddress(rng.pick(wallets.filter((w) => w !== payer))), 'payment');
    } else if (r < 0.72) deposit(rng.pick(wallets));
    else if (r < 0.8) withdrawal();
    else if (r < 0.86) consolidation();
    else peelStep() || payment(rng.pick(wallets), payeeAddress(rng.pick(wallets)), 'payment');
    sweep();
  }

  // Exactly ENTITY_ADDRESSES entity addresses: victims pay fresh ones until there are, then the entity consolidates
  // everything it holds (with its public address's coin when it has one).
  for (let guard = 0; entityCount < ENTITY_ADDRESSES && guard < 500; guard++) {
    const victims = richWallets(50_000_000n);
    if (victims.length === 0) break;
    const to = entityFresh() as string;
    if (!payment(rng.pick(victims), to, 'entity-receipt', 0.6)) entityUndo(to);
  }
  if (entityCount !== ENTITY_ADDRESSES)
    throw new Error(`the entity has ${entityCount} addresses, not ${ENTITY_ADDRESSES}`);
  const rest = coinsOf(ENTITY);
  if (rest.length >= 2) {
    const picked = [...rest];
    take(ENTITY, picked);
    emit({
      kind: 'entity-consolidation',
      inputs: picked,
      outputs: [{ address: entityPublic, value: sum(picked) - fee(picked.length, 1), change: true }],
    });
  }
  sweep(true);

  // Only addresses some transaction pays are part of the economy (a deleted placeholder never reached the chain).
  const used = new Set(txs.flatMap((t) => t.outputs.map((o) => o.address)));
  for (const a of [...owners.keys()]) if (!used.has(a)) owners.delete(a);
  const entityAddresses = [...owners].filter(([, o]) => o === ENTITY).map(([a]) => a);
  if (entityAddresses.length !== ENTITY_ADDRESSES)
    throw new Error(`the entity has ${entityAddresses.length} addresses on chain, not ${ENTITY_ADDRESSES}`);
  const labelled = rng.pick(entityAddresses.filter((a) => a !== entityPublic));
  return { seed: options.seed, txs, owners, wallets, labelled, entityPublic, coinjoins };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Checks the plan's own arithmetic: every coin spent once, never more out than in. */
export function checkPlan(plan: EconomyPlan): void {
  const spent = new Set<string>();
  plan.txs.forEach((tx, i) => {
    for (const c of tx.inputs) {
      const key = `${c.tx}:${c.vout}`;
      if (c.tx >= i) throw new Error(`tx ${i} spends a later tx ${c.tx}`);
      if (spent.has(key)) throw new Error(`tx ${i} double-spends ${key}`);
      const source = plan.txs[c.tx]!.outputs[c.vout];
      if (!source || source.address !== c.address || source.value !== c.value)
        throw new Error(`tx ${i} spends ${key}, which is not that coin`);
      spent.add(key);
    }
    if (tx.inputs.length > 0 && sum(tx.outputs) > sum(tx.inputs)) throw new Error(`tx ${i} pays more than it spends`);
    for (const o of tx.outputs) if (o.value <= 0n) throw new Error(`tx ${i} has a non-positive output`);
  });
}

export type { Rng };
