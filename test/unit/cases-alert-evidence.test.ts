import { alertEvidence } from '../../src/cases/alert-evidence';

const answer = (level: string, hits: { rule: string; category: string; address: string }[], extra = {}) => ({
  apiType: 'KYA',
  chain: 'ethereum',
  target: '0xabc',
  response: { risk_level: level, risk_score: 50, rule_scores: { is_sanctioned: 0 }, ...extra },
  fullResponse: { hits, crawl: { at: new Date().toISOString() } },
});

describe('alertEvidence', () => {
  const hit = { rule: 'tag_score', category: 'mixer', address: '0xabc' };

  test('when the verdict is review or block, then it alerts; allow (LOW) does not', () => {
    expect(alertEvidence(answer('MEDIUM', [hit]))).toMatchObject({ severity: 'medium', subject: '0xabc' });
    expect(alertEvidence(answer('HIGH', [hit]))).toMatchObject({ severity: 'high', subjectKind: 'address' });
    expect(alertEvidence(answer('LOW', [hit]))).toBeNull();
    expect(alertEvidence(answer('LOW', [hit]), { always: true })).toMatchObject({ severity: 'low' });
  });

  test('when a KYT has sanctioned exposure, then it alerts whatever its level, with the txid as subject', () => {
    const kyt = { ...answer('LOW', [{ rule: 'indirect', category: 'sanctions', address: '0xdef' }]), apiType: 'KYT' };
    expect(alertEvidence(kyt)).toMatchObject({ subjectKind: 'transaction', sanctions: true, severity: 'low' });
  });

  test(
    'when the same findings come with other scores, ' + 'then the fingerprint is the same; a new finding changes it',
    () => {
      const a = alertEvidence(answer('HIGH', [hit], { risk_score: 90 }));
      const b = alertEvidence(answer('HIGH', [hit, hit], { risk_score: 70 }));
      const c = alertEvidence(answer('HIGH', [hit, { ...hit, category: 'scam' }]));
      expect(a?.fingerprint).toBe(b?.fingerprint);
      expect(c?.fingerprint).not.toBe(a?.fingerprint);
    },
  );
});
