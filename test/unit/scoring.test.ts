import path from 'node:path';
import type { AddressFacts, TransferSummary } from '../../src/screening/chains/chain-client';
import type { AddressIntel, FreezeHit, LabelHit, SanctionHit } from '../../src/screening/engine/reference-data';
import { loadRiskModel, type RiskModel } from '../../src/screening/engine/risk-model';
import { riskLevelFor, scoreParties, type Party, type ScoreInput } from '../../src/screening/engine/scoring';

const model: RiskModel = loadRiskModel(path.join(__dirname, '../../data/risk'));
const NOW = 1_790_000_000; // fixed unix seconds

// Real entries from data/risk/*.csv.
const SANCTIONED_EVM = '0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c'; // "Sim, Hyon Sop", NPWMD (arbitrum/bsc/…)
const FROZEN_EVM = '0x008fe40574e881e7247b50b991c0cc057d66647f'; // USDT blacklisted 2018-06-09
const FORMERLY_FROZEN_EVM = '0x9faf5515f177f3a8a845d48c19032b33cc54c09c'; // USDT removed 2017-11-28
const CLEAN_EVM = '0x1111111111111111111111111111111111111111';

const emptyIntel = (): AddressIntel => ({ sanctions: [], freezes: [], labels: [] });

const sanction = (overrides: Partial<SanctionHit> = {}): SanctionHit => ({
  chain: 'ethereum',
  sdnName: 'Sim, Hyon Sop',
  sdnUid: '42498',
  programs: ['NPWMD'],
  designated: '2023-04-24',
  source: 'ofac-sdn-xml-2025-11-19',
  ...overrides,
});

const freeze = (overrides: Partial<FreezeHit> = {}): FreezeHit => ({
  chain: 'ethereum',
  token: 'USDT',
  status: 'blacklisted',
  since: '2018-06-09T12:31:42Z',
  lastEventAt: '2018-06-09T12:31:42Z',
  source: 'usdt-contract-events-2025-09-13',
  ...overrides,
});

const label = (category: string, confidence: string | null, overrides: Partial<LabelHit> = {}): LabelHit => ({
  chain: 'ethereum',
  name: null,
  category,
  categories: [],
  confidence,
  source: 'test-labels',
  sourceDate: '2025-01-01',
  ...overrides,
});

const summary = (overrides: Partial<TransferSummary> = {}): TransferSummary => ({
  firstSeen: NOW - 400 * 86_400,
  lastSeen: NOW - 86_400,
  inboundCount: 50,
  inboundCounterparties: [],
  truncated: false,
  ...overrides,
});

const facts = (address: string, overrides: Partial<AddressFacts> = {}): AddressFacts => ({
  address,
  isContract: false,
  nativeBalance: 0n,
  tokenBalances: [],
  outgoingCount: 10,
  transferSummary: summary(),
  ...overrides,
});

/** A KYA input: one target party whose intel also provides the subject labels. */
function kya(address: string, intel: AddressIntel, chainFacts: AddressFacts | null = facts(address)): ScoreInput {
  // Scoring reads the facts as the answer's evidence stores them: the transfer summary under `history`.
  const subjectFacts = chainFacts && { isContract: chainFacts.isContract, history: chainFacts.transferSummary };
  return { parties: [{ address, role: 'target', intel }], subjectFacts, subjectLabels: intel.labels, nowSeconds: NOW };
}

describe('scoreParties', () => {
  test(
    'when the address is on the active OFAC SDN list, then is_sanctioned is 100, the score is 100 ' +
      'HIGH and the reason names the SDN',
    () => {
      // Arrange
      const input = kya(SANCTIONED_EVM, { ...emptyIntel(), sanctions: [sanction()] });

      // Act
      const result = scoreParties(model, input);

      // Assert
      expect(result.ruleScores.is_sanctioned).toBe(100);
      expect(result.riskScore).toBe(100);
      expect(result.riskLevel).toBe('HIGH');
      expect(result.driver).toContain('OFAC SDN');
      expect(result.driver).toContain('Sim, Hyon Sop');
      expect(result.driver).toContain('NPWMD');
      expect(result.hits).toHaveLength(1);
      expect(result.hits[0]).toMatchObject({
        rule: 'is_sanctioned',
        score: 100,
        address: SANCTIONED_EVM,
        category: 'sanctions',
      });
    },
  );

  test('when a sanctioned address also carries an exchange label and old transfers, then the score stays 100', () => {
    // Arrange
    const intel: AddressIntel = { ...emptyIntel(), sanctions: [sanction()], labels: [label('exchange', 'high')] };

    // Act
    const result = scoreParties(model, kya(SANCTIONED_EVM, intel));

    // Assert
    expect(result.ruleScores.address_type).toBe(-10);
    expect(result.riskScore).toBe(100);
    expect(result.riskLevel).toBe('HIGH');
  });

  test(
    'when the address is currently frozen by the USDT issuer, then is_blacklisted is 90 and the score is ' +
      'at least the 85 floor, HIGH',
    () => {
      // Arrange
      const input = kya(FROZEN_EVM, { ...emptyIntel(), freezes: [freeze()] });

      // Act
      const result = scoreParties(model, input);

      // Assert
      expect(result.ruleScores.is_blacklisted).toBe(90);
      expect(result.riskScore).toBe(85);
      expect(result.riskLevel).toBe('HIGH');
      expect(result.driver).toContain('frozen by the USDT issuer');
      expect(result.tags.map((t) => t.display)).toEqual(['USDT frozen (ethereum)']);
    },
  );

  test(
    'when a currently frozen address also carries a high-confidence exchange label, ' +
      'then the score does not drop below the 85 floor',
    () => {
      // Arrange: data/risk/risk_categories.json "floors": { "is_blacklisted": 85 }
      const intel: AddressIntel = {
        ...emptyIntel(),
        freezes: [freeze()],
        labels: [label('exchange', 'high', { name: 'Some Exchange' })],
      };

      // Act
      const result = scoreParties(model, kya(FROZEN_EVM, intel));

      // Assert
      expect(result.ruleScores.is_blacklisted).toBe(90);
      expect(result.ruleScores.address_type).toBe(-10);
      expect(result.riskScore).toBeGreaterThanOrEqual(85);
      expect(result.riskLevel).toBe('HIGH');
    },
  );

  test('when the address was formerly frozen and released, then is_blacklisted is 30 and the level is LOW', () => {
    // Arrange
    const input = kya(FORMERLY_FROZEN_EVM, {
      ...emptyIntel(),
      freezes: [freeze({ status: 'removed', since: '2017-11-28T16:39:10Z', lastEventAt: '2017-11-28T16:59:39Z' })],
    });

    // Act
    const result = scoreParties(model, input);

    // Assert
    expect(result.ruleScores.is_blacklisted).toBe(30);
    expect(result.riskScore).toBe(30);
    expect(result.riskLevel).toBe('LOW');
    expect(result.driver).toContain('released on 2017-11-28T16:59:39Z');
    expect(result.tags[0]?.display).toBe('USDT formerly frozen (ethereum)');
  });

  test('when the address has a high-confidence ransomware label, then tag_score is 95 and the level is HIGH', () => {
    // Arrange
    const input = kya(CLEAN_EVM, { ...emptyIntel(), labels: [label('ransomware', 'high', { name: 'WannaCry' })] });

    // Act
    const result = scoreParties(model, input);

    // Assert
    expect(result.ruleScores.tag_score).toBe(95);
    expect(result.riskScore).toBe(95);
    expect(result.riskLevel).toBe('HIGH');
    expect(result.driver).toContain('labelled ransomware ("WannaCry")');
  });

  test.each([
    // category severities from data/risk/risk_categories.json
    ['ransomware', 'high', 95],
    ['ransomware', 'medium', 86], // round(95 * 0.9) = 85.5 → 86
    ['ransomware', 'low', 71], // round(95 * 0.75) = 71.25
    ['phishing', 'medium', 72], // 80 * 0.9
    ['scam', 'low', 60], // 80 * 0.75
    ['gambling', 'medium', 45], // 50 * 0.9
    ['gambling', 'low', 38], // 50 * 0.75 = 37.5 → 38
  ])(
    'when the address has a %s label with %s confidence, then tag_score is the severity times the ' +
      'confidence multiplier (%i)',
    (category, confidence, expected) => {
      // Arrange
      const input = kya(CLEAN_EVM, { ...emptyIntel(), labels: [label(category, confidence)] });

      // Act
      const result = scoreParties(model, input);

      // Assert
      expect(result.ruleScores.tag_score).toBe(expected);
    },
  );

  test('when the label has no confidence, then the lowest multiplier (0.75) applies', () => {
    // Arrange
    const input = kya(CLEAN_EVM, { ...emptyIntel(), labels: [label('phishing', null)] });

    // Act
    const result = scoreParties(model, input);

    // Assert
    expect(result.ruleScores.tag_score).toBe(60);
  });

  test(
    'when the address has no hits but is new and has few inflows, ' +
      'then the behaviour nudges add +15 and the level stays LOW',
    () => {
      // Arrange
      const input = kya(
        CLEAN_EVM,
        emptyIntel(),
        facts(CLEAN_EVM, { transferSummary: summary({ firstSeen: NOW - 3600, inboundCount: 1 }) }),
      );

      // Act
      const result = scoreParties(model, input);

      // Assert
      expect(result.ruleScores.active_duration).toBe(10);
      expect(result.ruleScores.receive_count).toBe(5);
      expect(result.riskScore).toBe(15);
      expect(result.riskScore).toBeLessThan(40);
      expect(result.riskLevel).toBe('LOW');
      expect(result.driver).toBeNull();
      expect(result.behaviourNotes).toEqual(['first seen 1 h ago (+10)', 'only 1 inbound transfer (+5)']);
    },
  );

  test('when the inbound transfers were truncated, then the few-inflows nudge does not apply', () => {
    // Arrange
    const input = kya(
      CLEAN_EVM,
      emptyIntel(),
      facts(CLEAN_EVM, { transferSummary: summary({ inboundCount: 2, truncated: true }) }),
    );

    // Act
    const result = scoreParties(model, input);

    // Assert
    expect(result.ruleScores.receive_count).toBe(0);
  });

  test.each([
    [3600 * 12, 10],
    [86_400 * 3, 6],
    [86_400 * 20, 3],
    [86_400 * 31, 0],
  ])('when the address was first seen %i seconds ago, then active_duration is %i', (ageSeconds, expected) => {
    // Arrange
    const input = kya(
      CLEAN_EVM,
      emptyIntel(),
      facts(CLEAN_EVM, { transferSummary: summary({ firstSeen: NOW - ageSeconds }) }),
    );

    // Act
    const result = scoreParties(model, input);

    // Assert
    expect(result.ruleScores.active_duration).toBe(expected);
  });

  test('when the address has a low-confidence scam label (80 × 0.75 = 60), then the level is MEDIUM', () => {
    // Arrange
    const input = kya(CLEAN_EVM, { ...emptyIntel(), labels: [label('scam', 'low')] });

    // Act
    const result = scoreParties(model, input);

    // Assert
    expect(result.riskScore).toBe(60);
    expect(result.riskLevel).toBe('MEDIUM');
  });

  test(
    'when a high-confidence phishing label (80) comes with a high-confidence exchange label (-10), ' +
      'then the score does not drop below 70',
    () => {
      // Arrange
      const intel: AddressIntel = { ...emptyIntel(), labels: [label('phishing', 'high'), label('exchange', 'high')] };

      // Act
      const result = scoreParties(model, kya(CLEAN_EVM, intel));

      // Assert
      expect(result.ruleScores.tag_score).toBe(80);
      expect(result.ruleScores.address_type).toBe(-10);
      expect(result.riskScore).toBeGreaterThanOrEqual(70);
      expect(result.riskLevel).toBe('HIGH');
    },
  );

  test(
    'when a medium-confidence phishing label (72) comes with an exchange label (-10 → 62), ' +
      'then the score is floored at 70',
    () => {
      // Arrange
      const intel: AddressIntel = { ...emptyIntel(), labels: [label('phishing', 'medium'), label('exchange', 'high')] };

      // Act
      const result = scoreParties(model, kya(CLEAN_EVM, intel));

      // Assert
      expect(result.ruleScores.tag_score).toBe(72);
      expect(result.riskScore).toBe(70);
      expect(result.riskLevel).toBe('HIGH');
    },
  );

  test('when a direct high hit comes with positive behaviour nudges, then they add on top (capped at +15)', () => {
    // Arrange
    const intel: AddressIntel = { ...emptyIntel(), labels: [label('scam', 'low')] };
    const subject = facts(CLEAN_EVM, {
      isContract: false,
      transferSummary: summary({ firstSeen: NOW - 60, inboundCount: 0 }),
    });

    // Act
    const result = scoreParties(model, kya(CLEAN_EVM, intel, subject));

    // Assert
    expect(result.riskScore).toBe(75);
    expect(result.riskLevel).toBe('HIGH');
  });

  test('when the subject has a high-confidence exchange label, then address_type is -10', () => {
    // Arrange
    const input = kya(CLEAN_EVM, {
      ...emptyIntel(),
      labels: [label('exchange', 'high', { name: 'Binance Hot Wallet 10' })],
    });

    // Act
    const result = scoreParties(model, input);

    // Assert
    expect(result.ruleScores.address_type).toBe(-10);
    expect(result.ruleScores.tag_score).toBe(10);
    expect(result.riskScore).toBe(0);
    expect(result.behaviourNotes).toContain('labelled exchange or custodian wallet (-10)');
  });

  test('when the exchange label has only medium confidence, then address_type is not reduced', () => {
    // Arrange
    const input = kya(CLEAN_EVM, { ...emptyIntel(), labels: [label('exchange', 'medium')] });

    // Act
    const result = scoreParties(model, input);

    // Assert
    expect(result.ruleScores.address_type).toBe(0);
  });

  test('when the subject is an unlabelled contract, then address_type is +5', () => {
    // Arrange
    const input = kya(CLEAN_EVM, emptyIntel(), facts(CLEAN_EVM, { isContract: true }));

    // Act
    const result = scoreParties(model, input);

    // Assert
    expect(result.ruleScores.address_type).toBe(5);
    expect(result.riskScore).toBe(5);
    expect(result.behaviourNotes).toContain('unlabelled contract (+5)');
  });

  test('when the contract carries a label, then the unlabelled-contract nudge does not apply', () => {
    // Arrange
    const input = kya(
      CLEAN_EVM,
      { ...emptyIntel(), labels: [label('dex', 'medium')] },
      facts(CLEAN_EVM, { isContract: true }),
    );

    // Act
    const result = scoreParties(model, input);

    // Assert
    expect(result.ruleScores.address_type).toBe(0);
  });

  test('when no chain data was read, then behaviour scores are zero', () => {
    // Arrange
    const input = kya(CLEAN_EVM, emptyIntel(), null);

    // Act
    const result = scoreParties(model, input);

    // Assert
    expect(result.ruleScores).toEqual({
      tag_score: 0,
      is_sanctioned: 0,
      is_blacklisted: 0,
      receive_count: 0,
      address_type: 0,
      active_duration: 0,
    });
    expect(result.riskScore).toBe(0);
    expect(result.riskLevel).toBe('LOW');
    expect(result.hits).toEqual([]);
    expect(result.tags).toEqual([]);
  });

  test('when OFAC files one address several times (ARB, BSC, ETH), then there is one hit and one tag', () => {
    // Arrange
    const intel: AddressIntel = {
      ...emptyIntel(),
      sanctions: [
        sanction({ chain: 'arbitrum' }),
        sanction({ chain: 'binance-smart-chain' }),
        sanction({ chain: 'ethereum' }),
      ],
    };

    // Act
    const result = scoreParties(model, kya(SANCTIONED_EVM, intel));

    // Assert
    expect(result.hits.filter((h) => h.rule === 'is_sanctioned')).toHaveLength(1);
    expect(result.tags).toEqual([{ name: 'Sim, Hyon Sop', type: 'sanctions', display: 'OFAC SDN: Sim, Hyon Sop' }]);
  });

  test(
    'when a KYT recipient is sanctioned and the sender is clean, then the whole result is ' +
      'HIGH and the tag carries the role prefix',
    () => {
      // Arrange
      const sender: Party = { address: CLEAN_EVM, role: 'sender', intel: emptyIntel() };
      const recipient: Party = {
        address: SANCTIONED_EVM,
        role: 'recipient',
        intel: { ...emptyIntel(), sanctions: [sanction()] },
      };
      const input: ScoreInput = {
        parties: [sender, recipient],
        subjectFacts: null,
        subjectLabels: [],
        nowSeconds: NOW,
      };

      // Act
      const result = scoreParties(model, input);

      // Assert
      expect(result.riskScore).toBe(100);
      expect(result.riskLevel).toBe('HIGH');
      expect(result.ruleScores.is_sanctioned).toBe(100);
      expect(result.tags.map((t) => t.display)).toEqual(['recipient: OFAC SDN: Sim, Hyon Sop']);
      expect(result.hits[0]).toMatchObject({ role: 'recipient', address: SANCTIONED_EVM });
      expect(result.driver).toBe(
        `Recipient ${SANCTIONED_EVM} is on the OFAC SDN list: Sim, Hyon Sop (programs NPWMD), designated 2023-04-24`,
      );
    },
  );

  test('when several parties have hits, then hits are ordered worst first and the driver is the worst one', () => {
    // Arrange
    const sender: Party = {
      address: CLEAN_EVM,
      role: 'sender',
      intel: { ...emptyIntel(), labels: [label('gambling', 'high')] },
    };
    const recipient: Party = {
      address: FROZEN_EVM,
      role: 'token recipient',
      intel: { ...emptyIntel(), freezes: [freeze()] },
    };
    const input: ScoreInput = { parties: [sender, recipient], subjectFacts: null, subjectLabels: [], nowSeconds: NOW };

    // Act
    const result = scoreParties(model, input);

    // Assert
    expect(result.hits.map((h) => h.score)).toEqual([90, 50]);
    expect(result.driver).toMatch(/^Token recipient 0x008fe4/);
    expect(result.riskScore).toBe(85);
    expect(result.tags.map((t) => t.display)).toEqual([
      'sender: gambling (test-labels)',
      'token recipient: USDT frozen (ethereum)',
    ]);
  });
});

describe('riskLevelFor', () => {
  test.each([
    [0, 'LOW'],
    [39, 'LOW'],
    [40, 'MEDIUM'],
    [69, 'MEDIUM'],
    [70, 'HIGH'],
    [100, 'HIGH'],
  ])('when the score is %i, then the level is %s', (score, expected) => {
    // Arrange / Act
    const level = riskLevelFor(score);

    // Assert
    expect(level).toBe(expected);
  });
});
