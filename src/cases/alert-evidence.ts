import { createHash } from 'node:crypto';
import type { CaseSeverity } from './domain/case-model';

/** A screening answer as stored (src/screening's job mirror): what a case reads of it. */
export interface StoredAnswer {
  apiType: 'KYA' | 'KYT' | string;
  chain: string;
  target: string;
  response: Record<string, unknown> | null;
  fullResponse: Record<string, unknown> | null;
}

/** What an answer that alerts brings to a case: its subject, how grave it is, and its evidence fingerprint. */
export interface AlertEvidence {
  chain: string;
  subjectKind: 'address' | 'transaction';
  subject: string;
  severity: CaseSeverity;
  sanctions: boolean;
  fingerprint: string;
  /** The findings the fingerprint is made of (`rule category address`, sorted), for the trail and the case file. */
  findings: string[];
}

interface Hit {
  rule?: unknown;
  category?: unknown;
  address?: unknown;
}

const SEVERITY_OF_LEVEL: Record<string, CaseSeverity> = { LOW: 'low', MEDIUM: 'medium', HIGH: 'high' };

/**
 * Whether a completed answer opens (or joins) a case, and with what: the policy's verdict is `review` (its risk level
 * MEDIUM) or `block` (HIGH), or a transaction has sanctioned exposure (any level). The fingerprint is the SHA-256 of
 * the sanctioned flag and the sorted findings: the same evidence again has the same fingerprint, whatever the scores,
 * amounts or times around it; a new or vanished finding changes it. Null: nothing to alert. `always`: a monitor's
 * risk_changed alerts whatever the level (a delisting is reviewed too).
 */
export function alertEvidence(answer: StoredAnswer, options: { always?: boolean } = {}): AlertEvidence | null {
  const response = answer.response;
  if (!response) return null;
  const level = String(response.risk_level ?? 'LOW');
  const ruleScores = (response.rule_scores ?? {}) as Record<string, unknown>;
  const hits = (Array.isArray(answer.fullResponse?.hits) ? answer.fullResponse.hits : []) as Hit[];
  const sanctions =
    Number(ruleScores.is_sanctioned ?? 0) > 0 || hits.some((h) => h.category === 'sanctions' || h.rule === 'sanctions');
  const verdictAlerts = level === 'MEDIUM' || level === 'HIGH';
  const kytExposure = answer.apiType === 'KYT' && sanctions;
  if (!verdictAlerts && !kytExposure && !options.always) return null;
  const findings = [...new Set(hits.map((h) => `${String(h.rule)} ${String(h.category)} ${String(h.address)}`))].sort();
  const fingerprint = createHash('sha256').update(JSON.stringify({ sanctions, findings }), 'utf8').digest('hex');
  return {
    chain: answer.chain,
    subjectKind: answer.apiType === 'KYT' ? 'transaction' : 'address',
    subject: answer.target,
    severity: SEVERITY_OF_LEVEL[level] ?? 'low',
    sanctions,
    fingerprint,
    findings,
  };
}
