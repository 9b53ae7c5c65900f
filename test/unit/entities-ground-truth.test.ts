import { checkPlan, ENTITY, ENTITY_ADDRESSES, planEconomy } from '../../bench/entities/economy-plan';
import {
  changeScore,
  clusterByLinks,
  coinJoinDetection,
  commonInputNaive,
  commonInputWithDetection,
  exposureTruth,
  type GroundTruth,
  oneTimeChangeGuess,
  pairwiseScore,
  stratifiedRecall,
  type TruthTx,
  twoHopTaint,
  wilsonUpper,
} from '../../bench/entities/ground-truth';

const tx = (
  txid: string,
  kind: TruthTx['kind'],
  inputs: [string, number][],
  outputs: [string, number, boolean?][],
): TruthTx => ({
  txid,
  kind,
  inputs: inputs.map(([address, value]) => ({ address, value: BigInt(value) })),
  outputs: outputs.map(([address, value, change]) => ({ address, value: BigInt(value), change: change ?? false })),
});

describe('pairwise precision and recall (benchmark P12 ground truth)', () => {
  const owners = new Map([
    ['a1', 'A'],
    ['a2', 'A'],
    ['a3', 'A'],
    ['b1', 'B'],
    ['b2', 'B'],
    ['c1', 'C'],
  ]);

  test('when the clustering is the true ownership, then precision and recall are both 1', () => {
    const score = pairwiseScore(owners.keys(), (a) => owners.get(a), owners);
    expect(score).toMatchObject({ precision: 1, recall: 1, truePairs: 4, predictedPairs: 4, clusters: 2, largest: 3 });
  });

  test('when nothing is clustered, then precision is 1 (no pair claimed) and recall 0', () => {
    expect(pairwiseScore(owners.keys(), () => undefined, owners)).toMatchObject({ precision: 1, recall: 0 });
  });

  test('when one cluster wrongly joins a1 with b1, then the pairs are counted from the contingency table', () => {
    const clusters = new Map([
      ['a1', 'x'],
      ['a2', 'x'],
      ['b1', 'x'],
      ['b2', 'y'],
    ]);
    const score = pairwiseScore(owners.keys(), (a) => clusters.get(a), owners);
    // Predicted pairs: C(3,2) = 3 in x; correct: a1-a2 only. True pairs: C(3,2) + C(2,2) = 4.
    expect(score).toMatchObject({ predictedPairs: 3, correctPairs: 1, truePairs: 4 });
    expect(score.precision).toBeCloseTo(1 / 3);
    expect(score.recall).toBeCloseTo(1 / 4);
  });

  test('when an address has no recorded owner, then scoring refuses it', () => {
    expect(() => pairwiseScore(['zz'], () => undefined, owners)).toThrow('no true owner');
  });
});

describe('common input with and without CoinJoin detection', () => {
  // A 5×5 Whirlpool mix of five owners, and an ordinary two-input payment of owner A.
  const whirlpool = tx(
    'mix',
    'whirlpool',
    ['p1', 'p2', 'p3', 'p4', 'p5'].map((a) => [a, 1_000_600]),
    ['q1', 'q2', 'q3', 'q4', 'q5'].map((a) => [a, 1_000_000]),
  );
  const payment = tx(
    'pay',
    'payment',
    [
      ['a1', 500_000],
      ['a2', 700_000],
    ],
    [
      ['b1', 300_000],
      ['a3', 899_000, true],
    ],
  );
  const owners = new Map<string, string>([
    ...['p1', 'p2', 'p3', 'p4', 'p5'].map((a, i) => [a, `w${i}`] as [string, string]),
    ...['q1', 'q2', 'q3', 'q4', 'q5'].map((a, i) => [a, `w${i}`] as [string, string]),
    ['a1', 'A'],
    ['a2', 'A'],
    ['a3', 'A'],
    ['b1', 'B'],
  ]);

  test('when CoinJoins are detected, then only the ordinary payment merges and precision stays 1', () => {
    const clusters = clusterByLinks([whirlpool, payment], commonInputWithDetection);
    const score = pairwiseScore(owners.keys(), (a) => clusters.get(a), owners);
    expect(score.precision).toBe(1);
    expect(score.predictedPairs).toBe(1);
  });

  test('when every multi-input transaction is merged, then the mix joins five strangers', () => {
    const clusters = clusterByLinks([whirlpool, payment], commonInputNaive);
    const score = pairwiseScore(owners.keys(), (a) => clusters.get(a), owners);
    expect(score.predictedPairs).toBe(1 + 10);
    expect(score.precision).toBeCloseTo(1 / 11);
  });

  test('when the mix is recorded as a CoinJoin, then the detector is scored on it', () => {
    expect(coinJoinDetection([whirlpool, payment])).toEqual({
      coinjoins: 1,
      detected: 1,
      falseAlarms: 0,
      multiInput: 1,
    });
  });

  test('when one-time change fires on a payee seen before, then the guess is the fresh change and is correct', () => {
    const earlier = tx('old', 'payment', [['z', 1]], [['b1', 1]]);
    const txs = [earlier, payment];
    const score = changeScore(txs, new Map([...owners, ['z', 'Z']]), oneTimeChangeGuess(txs));
    expect(score).toMatchObject({ fired: 1, correct: 1, exact: 1, precision: 1 });
  });
});

describe('screening truth', () => {
  // E pays h1 (hop 1); h1 pays h2 (hop 2) and keeps change h1c (hop 2); h2 pays far (hop 3: clean);
  // v pays E (an upstream payer: neither exposed nor clean); x and y trade apart (clean).
  const txs = [
    tx('t0', 'entity-receipt', [['v', 100]], [['e1', 90]]),
    tx(
      't1',
      'entity-payout',
      [
        ['e1', 90],
        ['e2', 10],
      ],
      [
        ['h1', 50],
        ['e1', 49, true],
      ],
    ),
    tx(
      't2',
      'payment',
      [
        ['h1', 50],
        ['m', 50],
      ],
      [
        ['h2', 40],
        ['h1c', 59, true],
      ],
    ),
    tx('t3', 'payment', [['h2', 40]], [['far', 39]]),
    tx('t4', 'payment', [['x', 10]], [['y', 9]]),
  ];
  const owners = new Map([
    ['e1', ENTITY],
    ['e2', ENTITY],
    ['v', 'V'],
    ['h1', 'H'],
    ['m', 'H'],
    ['h1c', 'H'],
    ['h2', 'J'],
    ['far', 'K'],
    ['x', 'X'],
    ['y', 'Y'],
  ]);
  const truth: GroundTruth = { owners, txs };

  test('when hops are counted from the entity, then hop 1, hop 2, payers and clean addresses are apart', () => {
    const e = exposureTruth(truth, ENTITY);
    expect([...e.hop1]).toEqual(['h1']);
    expect([...e.hop2].sort()).toEqual(['h1c', 'h2']);
    expect([...e.upstream]).toEqual(['v']);
    expect([...e.clean].sort()).toEqual(['far', 'm', 'x', 'y']);
    expect(e.viaCoinJoinOnly.size).toBe(0);
  });

  test('when taint is attributed by input value, then hop-2 shares are the product of the two hops', () => {
    const taint = twoHopTaint(truth, new Set(['e1', 'e2']));
    expect(taint.get('h1')?.share).toBeCloseTo(1);
    // t2 spends h1 (all tainted) and m (clean) half and half.
    expect(taint.get('h2')?.share).toBeCloseTo(0.5);
    expect(taint.has('far')).toBe(false);
  });

  test('when one stratum is screened in part, then its recall is weighted by its population', () => {
    const flagged = new Set(['a', 'c']);
    const r = stratifiedRecall(flagged, [
      { screened: ['a', 'b'], population: 2 },
      { screened: ['c', 'd', 'e', 'f'], population: 40 },
    ]);
    expect(r.flaggedEstimate).toBeCloseTo(1 + 10);
    expect(r.recall).toBeCloseTo(11 / 42);
  });

  test('when no clean address of 300 is flagged, then the 95 % upper bound of the rate is about 1.3 %', () => {
    expect(wilsonUpper(0, 300)).toBeGreaterThan(0.012);
    expect(wilsonUpper(0, 300)).toBeLessThan(0.013);
  });
});

describe('the seeded economy plan', () => {
  test('when planned twice from one seed, then it is the same economy, and its arithmetic holds', () => {
    const a = planEconomy({ seed: 7, wallets: 40 });
    const b = planEconomy({ seed: 7, wallets: 40 });
    expect(a.txs.length).toBe(b.txs.length);
    expect(a.labelled).toBe(b.labelled);
    expect(() => checkPlan(a)).not.toThrow();
    const entity = [...a.owners].filter(([, o]) => o === ENTITY);
    expect(entity).toHaveLength(ENTITY_ADDRESSES);
    expect(a.owners.get(a.labelled)).toBe(ENTITY);
    expect(a.labelled).not.toBe(a.entityPublic);
    const kinds = new Set(a.txs.map((t) => t.kind));
    for (const k of ['payment', 'peel', 'deposit', 'sweep', 'withdrawal', 'whirlpool', 'joinmarket', 'wasabi'])
      expect(kinds).toContain(k);
  });
});
