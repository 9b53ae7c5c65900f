import { createHash } from 'node:crypto';
import { canonicalJson } from '../../platform/signing/detached-jws';
import type { EvidenceSignature } from '../../platform/signing/evidence-signature';
import type { CaseSnapshot } from '../domain/case-model';

/** Who acted, as the trail records it: a member with the role the worker confirmed, or the case's own timers. */
export type TrailActor = { kind: 'member'; member_id: string; role: string } | { kind: 'system' };

/**
 * One entry of a case's audit trail: who, when, what, and the case before and after. `request_id` names the entry
 * (`case:<case id>:<seq>`) so that it is signed exactly as a screening answer is, with the same keys and the same
 * verifier (src/platform/signing/verify-evidence.ts binds it in the JWS header).
 */
export interface TrailEntryBody {
  request_id: string;
  case_id: string;
  seq: number;
  at: string;
  actor: TrailActor;
  action: string;
  detail: Record<string, unknown>;
  before: CaseSnapshot | null;
  after: CaseSnapshot;
  /** The previous entry's hash; the first entry's is the genesis of the case (genesisHash). */
  prev_hash: string;
}

export interface TrailEntry extends TrailEntryBody {
  /** SHA-256 (hex) of the RFC 8785 canonical JSON of the body: what the next entry's prev_hash names. */
  hash: string;
  signature: EvidenceSignature;
}

export const trailEntryId = (caseId: string, seq: number) => `case:${caseId}:${seq}`;

/** The hash before the first entry: binds the chain to its case, so entries of another case cannot be spliced in. */
export const genesisHash = (caseId: string): string => sha256(`case:${caseId}`);

export const entryHash = (body: TrailEntryBody): string => sha256(canonicalJson(body));

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
