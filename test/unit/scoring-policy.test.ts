import path from 'node:path';
import type { AddressIntel, LabelHit } from '../../src/screening/engine/reference-data';
import { loadRiskModel } from '../../src/screening/engine/risk-model';
import { scoreEvidence, type ScoringEvidence } from '../../src/screening/engine/scoring-evidence';
import {
  policyBodySchema,
  policyDocumentOf,
  rulesOf,
  standardRules,
  type PolicySnapshot,
} from '../../src/screening/engine/scoring-policy';

const model = loadRiskModel(path.join(__dirname, '../../data/risk'));
const NOW = 1_790_000_000;
const TARGET = '0x0c073c92e7684031cfc297b83ecc33619e864d18'; // "Xether.io: Games", gambling (etherscan labels)

const label = (category: string, confidence = 'high'): LabelHit => ({
  chain: 'ethereum',
  name: null,
  category,
  categories: [],
  confidence,
  source: 'test-labels',
  sourceDate: '2025-01-01',
});
const intel = (o: Partial<AddressIntel> = {}): AddressIntel => ({ sanctions: [], freezes: [], labels: [], ...o });
const matureFacts = {
  isContract: false,
  history: { firstSeen: NOW - 400 * 86_400, inboundCount: 50, truncated: false },
};

function evidence(targetIntel: AddressIntel, nodes: NonNullable<ScoringEvidence['exposure']>['nodes'] = []) {
  return {
    parties: [{ address: TARGET, role: 'target', intel: targetIntel }],
    subject: TARGET,
    subject_facts: matureFacts,
    now_seconds: NOW,
    exposure: { nodes, subject_is_exchange: false },
  } satisfies ScoringEvidence;
}

const node = (hop: number, share: number, usd: number, nodeIntel: AddressIntel) => ({
  address: `0xnode${hop}${share}`,
  hop,
  direction: 'in' as const,
  share,
  usd,
  path: [TARGET, `0xnode${hop}${share}`],
  intel: nodeIntel,
});

function policy(body: unknown, version = 1): PolicySnapshot {
  const parsed = policyBodySchema(model).parse(body);
  return { id: 'p', version, document: policyDocumentOf('p', parsed) };
}

const score = (p: PolicySnapshot | null, e: ScoringEvidence) => scoreEvidence(rulesOf(model, p), e);

describe('risk policies over stored scoring evidence', () => {
  test('when gambling is severe, then a gambling-labelled address is HIGH under the policy and MEDIUM standard', () => {
    const e = evidence(intel({ labels: [label('gambling', 'medium')] }));
    const standard = scoreEvidence(standardRules(model), e);
    const strict = score(policy({ severe_categories: ['gambling'] }), e);
    expect(standard).toMatchObject({ riskLevel: 'MEDIUM', riskScore: 45 });
    expect(strict).toMatchObject({ riskLevel: 'HIGH', riskScore: 70 });
    expect(strict.policyNotes.join()).toMatch(/treats gambling as severe/);
  });

  test('when a severe category is only reached by dust or beyond the hop limit, then it does not count', () => {
    const gamblingNode = intel({ labels: [label('gambling')] });
    const p = policy({ severe_categories: ['gambling'], indirect: { min_share: 0.2, min_usd: 1000, max_hops: 1 } });
    expect(score(p, evidence(intel(), [node(1, 0.5, 5000, gamblingNode)])).riskLevel).toBe('HIGH');
    expect(score(p, evidence(intel(), [node(1, 0.1, 5000, gamblingNode)])).riskLevel).toBe('LOW');
    expect(score(p, evidence(intel(), [node(1, 0.5, 500, gamblingNode)])).riskLevel).toBe('LOW');
    expect(score(p, evidence(intel(), [node(2, 0.5, 5000, gamblingNode)])).riskLevel).toBe('LOW');
  });

  test('when a weight is set, then indirect exposure to that category scales by it, within the cap', () => {
    const mixerNode = intel({ labels: [label('mixer')] });
    const e = evidence(intel(), [node(2, 0.05, 5000, mixerNode)]);
    // 80 × min(1, 0.05 / 0.1) × 0.5^(2-1) = 20
    expect(score(null, e).riskScore).toBe(20);
    expect(score(policy({ categories: { mixer: { weight: 2 } } }), e).riskScore).toBe(40);
    expect(score(policy({ categories: { mixer: { weight: 0 } } }), e).riskScore).toBe(0);
    expect(
      score(policy({ categories: { mixer: { weight: 3 } } }), evidence(intel(), [node(1, 1, 5000, mixerNode)]))
        .riskScore,
    ).toBe(75);
  });

  test('when a policy weighs sanctions at 0 or raises the thresholds, then sanctioned exposure still counts', () => {
    const sdn = intel({
      sanctions: [
        {
          chain: 'ethereum',
          sdnName: 'X',
          sdnUid: '1',
          programs: [],
          designated: null,
          source: 'ofac',
        } as AddressIntel['sanctions'][number],
      ],
    });
    const p = policy({ categories: { sanctions: { weight: 0 } }, indirect: { min_share: 1, min_usd: 100_000_000 } });
    expect(score(p, evidence(intel(), [node(2, 0.5, 100, sdn)])).riskScore).toBe(
      score(null, evidence(intel(), [node(2, 0.5, 100, sdn)])).riskScore,
    );
  });

  test('when cut-offs and severities change, then the level and direct score follow', () => {
    const e = evidence(intel({ labels: [label('gambling')] }));
    expect(score(null, e)).toMatchObject({ riskScore: 50, riskLevel: 'MEDIUM' });
    expect(score(policy({ levels: { HIGH: 50 } }), e)).toMatchObject({ riskScore: 50, riskLevel: 'HIGH' });
    expect(score(policy({ categories: { gambling: { severity: 20 } } }), e)).toMatchObject({
      riskScore: 20,
      riskLevel: 'LOW',
    });
    expect(
      score(policy({ levels: { MEDIUM: 10, HIGH: 30 } }), evidence(intel({ labels: [label('dex')] }))).riskLevel,
    ).toBe('MEDIUM');
  });

  test('when the standard rules score the evidence, then the answer equals scoring without rules', () => {
    const e = evidence(intel({ labels: [label('mixer', 'low')] }), [
      node(1, 0.3, 900, intel({ labels: [label('scam')] })),
    ]);
    expect(scoreEvidence(standardRules(model), e)).toEqual(score(null, e));
  });

  test.each([
    [{ categories: { gambling: { severity: 101 } } }, 'categories.gambling.severity'],
    [{ categories: { gambling: { weight: -1 } } }, 'categories.gambling.weight'],
    [{ categories: { casino: { severity: 1 } } }, 'categories.casino'],
    [{ indirect: { min_share: 0.001 } }, 'indirect.min_share'],
    [{ indirect: { min_usd: 1 } }, 'indirect.min_usd'],
    [{ indirect: { max_hops: 4 } }, 'indirect.max_hops'],
    [{ levels: { MEDIUM: 80 } }, 'levels.MEDIUM'],
    [{ levels: { MEDIUM: 50, HIGH: 40 } }, 'levels.HIGH'],
    [{ severe_categories: ['nope'] }, 'severe_categories.0'],
    [{ colour: 'red' }, ''],
  ])('when the body is %j, then validation names %s', (body, field) => {
    const parsed = policyBodySchema(model).safeParse(body);
    expect(parsed.success).toBe(false);
    const paths = parsed.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toContain(field);
  });

  test('when severe is given both ways, then the stored document merges them into one sorted list', () => {
    const doc = policyDocumentOf(
      'p',
      policyBodySchema(model).parse({ severe_categories: ['mixer'], categories: { gambling: { severe: true } } }),
    );
    expect(doc.severe_categories).toEqual(['gambling', 'mixer']);
    expect(doc.categories).toEqual({ gambling: { severe: true }, mixer: { severe: true } });
    expect(doc.name).toBe('p');
  });
});
