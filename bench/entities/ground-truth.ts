/**
 * The ground truth of the entities benchmark (P12), pure: the simulated economy records every address's true owner
 * and every transaction whole, and these functions score a clustering and a screening against it.
 *
 * - Clustering quality is pairwise: of the address pairs a clustering puts together, the share with one true owner
 *   (precision), and of the pairs with one true owner, the share it puts together (recall). Pairs are counted from a
 *   cluster × owner contingency table (C(n, 2) per cell), never by enumerating pairs.
 * - Change heuristics are weak guesses, scored when they fire (as Möser and Narayanan score them).
 * - Screening truth: the addresses that received from the sanctioned entity within two hops (hop 1: the outputs of a
 *   transaction one of whose inputs is the entity's; hop 2: the outputs of a transaction with a hop-1 input), and the
 *   clean ones (no such path, not the entity's, and not one of its payers within two hops: a screening that flags an
 *   address for paying a sanctioned entity is right, so those are neither exposed nor clean).
 */
import type { UtxoTransaction } from '../../src/screening';
import { coinJoinShape } from '../../src/entities/domain/coinjoin';
import { commonInputLinks } from '../../src/entities/domain/common-input';
import { oneTimeChange, roundAmountChange } from '../../src/entities/domain/change-output';
import { UnionFind } from '../../src/entities/domain/union-find';

/** What each recorded transaction was in the economy (the truth a detector is scored against). */
export type TxKind =
  | 'funding'
  | 'payment'
  | 'consolidation'
  | 'peel'
  | 'deposit'
  | 'sweep'
  | 'withdrawal'
  | 'premix'
  | 'whirlpool'
  | 'joinmarket'
  | 'wasabi'
  | 'entity-receipt'
  | 'entity-payout'
  | 'entity-consolidation';

export const COINJOIN_KINDS: ReadonlySet<TxKind> = new Set(['whirlpool', 'joinmarket', 'wasabi']);

export interface TruthOutput {
  address: string;
  value: bigint;
  /** True when this output went back to the spender (its change): what a change heuristic should find. */
  change: boolean;
}

export interface TruthTx {
  txid: string;
  kind: TxKind;
  /** Spent outputs' addresses and values; empty for a coinbase. */
  inputs: { address: string; value: bigint }[];
  outputs: TruthOutput[];
}

/** Every address the economy used, with its true owner, and every transaction in chain order. */
export interface GroundTruth {
  owners: ReadonlyMap<string, string>;
  txs: readonly TruthTx[];
}

export const asUtxoTransaction = (tx: TruthTx): UtxoTransaction => ({
  txid: tx.txid,
  timestamp: null,
  inputs: tx.inputs.map((i) => ({ address: i.address, value: i.value })),
  outputs: tx.outputs.map((o) => ({ address: o.address, value: o.value })),
});

// ---------------------------------------------------------------------------------------------------------------
// Pairwise precision and recall

export interface PairScore {
  /** Correct pairs ÷ predicted pairs; 1 when the clustering joined nothing. */
  precision: number;
  /** Correct pairs ÷ true pairs; 1 when no owner has two addresses. */
  recall: number;
  predictedPairs: number;
  truePairs: number;
  correctPairs: number;
  addresses: number;
  /** Clusters of two or more addresses. */
  clusters: number;
  /** Addresses of the largest cluster. */
  largest: number;
}

const pairs = (n: number) => (n * (n - 1)) / 2;

/**
 * Scores a clustering of `addresses`: `clusterOf` answers an address's cluster id, or undefined for a cluster of
 * its own (the store keeps no single-address cluster). Every address must have an owner.
 */
export function pairwiseScore(
  addresses: Iterable<string>,
  clusterOf: (address: string) => string | undefined,
  owners: ReadonlyMap<string, string>,
): PairScore {
  const clusterSize = new Map<string, number>();
  const ownerSize = new Map<string, number>();
  const cell = new Map<string, number>();
  let count = 0;
  for (const address of addresses) {
    const owner = owners.get(address);
    if (owner === undefined) throw new Error(`no true owner recorded for ${address}`);
    const cluster = clusterOf(address) ?? `\u0000self:${address}`;
    count++;
    clusterSize.set(cluster, (clusterSize.get(cluster) ?? 0) + 1);
    ownerSize.set(owner, (ownerSize.get(owner) ?? 0) + 1);
    const key = `${cluster}\u0001${owner}`;
    cell.set(key, (cell.get(key) ?? 0) + 1);
  }
  let predictedPairs = 0;
  let clusters = 0;
  let largest = 0;
  for (const n of clusterSize.values()) {
    predictedPairs += pairs(n);
    if (n > 1) clusters++;
    largest = Math.max(largest, n);
  }
  let truePairs = 0;
  for (const n of ownerSize.values()) truePairs += pairs(n);
  let correctPairs = 0;
  for (const n of cell.values()) correctPairs += pairs(n);
  return {
    precision: predictedPairs === 0 ? 1 : correctPairs / predictedPairs,
    recall: truePairs === 0 ? 1 : correctPairs / truePairs,
    predictedPairs,
    truePairs,
    correctPairs,
    addresses: count,
    clusters,
    largest,
  };
}

/** The clusters the links of every transaction give, as address → representative (in-memory union-find). */
export function clusterByLinks(
  txs: readonly TruthTx[],
  linksOf: (tx: TruthTx, index: number) => readonly (readonly [string, string])[],
): Map<string, string> {
  const uf = new UnionFind();
  txs.forEach((tx, i) => {
    for (const [a, b] of linksOf(tx, i)) uf.union(a, b);
  });
  const out = new Map<string, string>();
  for (const [root, members] of uf.components()) for (const m of members) out.set(m, root);
  return out;
}

/** Common-input ownership as the service applies it: CoinJoin-shaped transactions are not merged. */
export const commonInputWithDetection = (tx: TruthTx): [string, string][] =>
  commonInputLinks(asUtxoTransaction(tx)).map((l) => [l.a, l.b]);

/** The naive multi-input rule, every transaction merged (what CoinJoin detection saves us from). */
export function commonInputNaive(tx: TruthTx): [string, string][] {
  const inputs = [...new Set(tx.inputs.map((i) => i.address))];
  return inputs.slice(1).map((b) => [inputs[0]!, b]);
}

/**
 * Addresses seen on chain before each transaction (as an input's or an output's address), in the recorded chain
 * order: what "fresh" means for one-time change. Answers a function `(txIndex) => seenBefore(address)`.
 */
export function seenBeforeIndex(txs: readonly TruthTx[]): (index: number, address: string) => boolean {
  const first = new Map<string, number>();
  txs.forEach((tx, i) => {
    for (const a of [...tx.inputs.map((x) => x.address), ...tx.outputs.map((x) => x.address)])
      if (!first.has(a)) first.set(a, i);
  });
  return (index, address) => {
    const at = first.get(address);
    return at !== undefined && at < index;
  };
}

/** One-time change links (the input addresses' first one to the guessed change): weak, never stored by the service. */
export function oneTimeChangeLinks(txs: readonly TruthTx[]): (tx: TruthTx, index: number) => [string, string][] {
  const seen = seenBeforeIndex(txs);
  return (tx, index) => {
    const change = oneTimeChange(asUtxoTransaction(tx), (a) => seen(index, a));
    const from = tx.inputs[0]?.address;
    return change && from ? [[from, change]] : [];
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Change heuristics when they fire

export interface ChangeScore {
  /** Transactions with an input address and at least two output addresses (where a guess is possible). */
  eligible: number;
  fired: number;
  /** Guesses whose address belongs to one of the inputs' owners (the link it would add is a true one). */
  correct: number;
  /** Guesses that named the output the economy recorded as the change. */
  exact: number;
  precision: number;
  fireRate: number;
}

export function changeScore(
  txs: readonly TruthTx[],
  owners: ReadonlyMap<string, string>,
  guess: (tx: TruthTx, index: number) => string | null,
): ChangeScore {
  let eligible = 0;
  let fired = 0;
  let correct = 0;
  let exact = 0;
  txs.forEach((tx, i) => {
    if (tx.inputs.length === 0 || new Set(tx.outputs.map((o) => o.address)).size < 2) return;
    eligible++;
    const picked = guess(tx, i);
    if (picked === null) return;
    fired++;
    const inputOwners = new Set(tx.inputs.map((x) => owners.get(x.address)));
    if (inputOwners.has(owners.get(picked))) correct++;
    if (tx.outputs.some((o) => o.address === picked && o.change)) exact++;
  });
  return {
    eligible,
    fired,
    correct,
    exact,
    precision: fired === 0 ? Number.NaN : correct / fired,
    fireRate: eligible === 0 ? Number.NaN : fired / eligible,
  };
}

export function oneTimeChangeGuess(txs: readonly TruthTx[]): (tx: TruthTx, index: number) => string | null {
  const seen = seenBeforeIndex(txs);
  return (tx, index) => oneTimeChange(asUtxoTransaction(tx), (a) => seen(index, a));
}

export const roundAmountGuess = (tx: TruthTx): string | null => roundAmountChange(asUtxoTransaction(tx));

// ---------------------------------------------------------------------------------------------------------------
// CoinJoin detection

export interface DetectionScore {
  coinjoins: number;
  detected: number;
  /** Ordinary transactions (two or more input addresses) called a CoinJoin: merges lost, never wrong ones. */
  falseAlarms: number;
  multiInput: number;
}

export function coinJoinDetection(txs: readonly TruthTx[]): DetectionScore {
  let coinjoins = 0;
  let detected = 0;
  let falseAlarms = 0;
  let multiInput = 0;
  for (const tx of txs) {
    const shape = coinJoinShape(asUtxoTransaction(tx));
    if (COINJOIN_KINDS.has(tx.kind)) {
      coinjoins++;
      if (shape !== null) detected++;
    } else if (new Set(tx.inputs.map((i) => i.address)).size >= 2) {
      multiInput++;
      if (shape !== null) falseAlarms++;
    }
  }
  return { coinjoins, detected, falseAlarms, multiInput };
}

// ---------------------------------------------------------------------------------------------------------------
// Screening truth

export interface ExposureTruth {
  entity: ReadonlySet<string>;
  /** Received in a transaction with an entity input. */
  hop1: ReadonlySet<string>;
  /** Received in a transaction with a hop-1 input (and not hop 1 itself). */
  hop2: ReadonlySet<string>;
  /** hop1 ∪ hop2: what a screening should flag. */
  exposed: ReadonlySet<string>;
  /** Paid the entity within two hops (and not exposed): left out of both figures. */
  upstream: ReadonlySet<string>;
  /** Neither: a flag on one of these is a false positive. */
  clean: ReadonlySet<string>;
  /** The exposed addresses whose every two-hop path from the entity passes through a CoinJoin. */
  viaCoinJoinOnly: ReadonlySet<string>;
}

export function exposureTruth(truth: GroundTruth, entityOwner: string): ExposureTruth {
  const entity = new Set([...truth.owners].filter(([, o]) => o === entityOwner).map(([a]) => a));
  const step = (from: ReadonlySet<string>, exclude: (a: string) => boolean, mixing: boolean | null) => {
    const out = new Set<string>();
    for (const tx of truth.txs) {
      if (mixing !== null && COINJOIN_KINDS.has(tx.kind) !== mixing) continue;
      if (!tx.inputs.some((i) => from.has(i.address))) continue;
      for (const o of tx.outputs) if (!exclude(o.address)) out.add(o.address);
    }
    return out;
  };
  const hop1 = step(entity, (a) => entity.has(a), null);
  const hop2 = step(hop1, (a) => entity.has(a) || hop1.has(a), null);
  const exposed = new Set([...hop1, ...hop2]);
  // The same paths without any CoinJoin step.
  const plain1 = step(entity, (a) => entity.has(a), false);
  const plain2 = step(plain1, (a) => entity.has(a), false);
  const viaCoinJoinOnly = new Set([...exposed].filter((a) => !plain1.has(a) && !plain2.has(a)));

  const back = (to: ReadonlySet<string>) => {
    const out = new Set<string>();
    for (const tx of truth.txs)
      if (tx.outputs.some((o) => to.has(o.address))) for (const i of tx.inputs) out.add(i.address);
    return out;
  };
  const up1 = back(entity);
  const up2 = back(up1);
  const upstream = new Set([...up1, ...up2].filter((a) => !entity.has(a) && !exposed.has(a)));
  const clean = new Set([...truth.owners.keys()].filter((a) => !entity.has(a) && !exposed.has(a) && !upstream.has(a)));
  return { entity, hop1, hop2, exposed, upstream, clean, viaCoinJoinOnly };
}

export interface ScreeningScore {
  exposed: number;
  flaggedExposed: number;
  recall: number;
  clean: number;
  flaggedClean: number;
  falsePositiveRate: number;
  /** Wilson 95 % upper bound of the false-positive rate (the sample is finite). */
  falsePositiveUpper95: number;
}

/** Wilson score interval's upper end at 95 %. */
export function wilsonUpper(successes: number, n: number, z = 1.96): number {
  if (n === 0) return 1;
  const p = successes / n;
  const denom = 1 + (z * z) / n;
  const centre = p + (z * z) / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return Math.min(1, (centre + margin) / denom);
}

export function screeningScore(
  flagged: ReadonlySet<string>,
  exposed: readonly string[],
  clean: readonly string[],
): ScreeningScore {
  const flaggedExposed = exposed.filter((a) => flagged.has(a)).length;
  const flaggedClean = clean.filter((a) => flagged.has(a)).length;
  return {
    exposed: exposed.length,
    flaggedExposed,
    recall: exposed.length === 0 ? Number.NaN : flaggedExposed / exposed.length,
    clean: clean.length,
    flaggedClean,
    falsePositiveRate: clean.length === 0 ? Number.NaN : flaggedClean / clean.length,
    falsePositiveUpper95: wilsonUpper(flaggedClean, clean.length),
  };
}

/**
 * Recall over strata screened in part: each stratum's recall (from the addresses of it that were screened) weighted
 * by its population. With every stratum screened whole it is the plain recall.
 */
export function stratifiedRecall(
  flagged: ReadonlySet<string>,
  strata: readonly { screened: readonly string[]; population: number }[],
): { recall: number; flaggedEstimate: number; population: number } {
  let population = 0;
  let flaggedEstimate = 0;
  for (const s of strata) {
    population += s.population;
    if (s.screened.length === 0) continue;
    const hit = s.screened.filter((a) => flagged.has(a)).length;
    flaggedEstimate += (hit / s.screened.length) * s.population;
  }
  return { recall: population === 0 ? Number.NaN : flaggedEstimate / population, flaggedEstimate, population };
}

/**
 * Each address's share of everything it received that came from the entity within two hops, attributed in proportion
 * to input value (the crawl's "haircut"): s1 through a transaction with entity inputs, s2 through a transaction whose
 * inputs received from the entity (s1 of each input address, weighted by its value). The risk model scores a label by
 * this share (risk-model.json indirect: saturation at 10 %, halved at hop 2), so it says how visible the exposure is.
 */
export function twoHopTaint(
  truth: GroundTruth,
  entity: ReadonlySet<string>,
): Map<string, { share: number; hop1: number; hop2: number; received: bigint; txs: number }> {
  const received = new Map<string, bigint>();
  const txCount = new Map<string, number>();
  for (const tx of truth.txs) {
    const seen = new Set<string>();
    for (const o of tx.outputs) {
      received.set(o.address, (received.get(o.address) ?? 0n) + o.value);
      seen.add(o.address);
    }
    for (const i of tx.inputs) seen.add(i.address);
    for (const a of seen) txCount.set(a, (txCount.get(a) ?? 0) + 1);
  }
  const share = (part: number, whole: bigint) => (whole === 0n ? 0 : part / Number(whole));
  const weighted = (tx: TruthTx, weight: (address: string) => number) => {
    const total = tx.inputs.reduce((s, i) => s + Number(i.value), 0);
    return total === 0 ? 0 : tx.inputs.reduce((s, i) => s + Number(i.value) * weight(i.address), 0) / total;
  };
  const tainted1 = new Map<string, number>();
  for (const tx of truth.txs) {
    const e = weighted(tx, (a) => (entity.has(a) ? 1 : 0));
    if (e === 0) continue;
    for (const o of tx.outputs)
      if (!entity.has(o.address)) tainted1.set(o.address, (tainted1.get(o.address) ?? 0) + Number(o.value) * e);
  }
  const s1 = (a: string) => share(tainted1.get(a) ?? 0, received.get(a) ?? 0n);
  const tainted2 = new Map<string, number>();
  for (const tx of truth.txs) {
    const e = weighted(tx, (a) => (entity.has(a) ? 0 : s1(a)));
    if (e === 0) continue;
    for (const o of tx.outputs)
      if (!entity.has(o.address)) tainted2.set(o.address, (tainted2.get(o.address) ?? 0) + Number(o.value) * e);
  }
  const out = new Map<string, { share: number; hop1: number; hop2: number; received: bigint; txs: number }>();
  for (const a of new Set([...tainted1.keys(), ...tainted2.keys()])) {
    const hop1 = s1(a);
    const hop2 = share(tainted2.get(a) ?? 0, received.get(a) ?? 0n);
    out.set(a, {
      share: Math.min(1, hop1 + hop2),
      hop1,
      hop2,
      received: received.get(a) ?? 0n,
      txs: txCount.get(a) ?? 0,
    });
  }
  return out;
}
