import { canonicalJson, InvalidSignature } from '../../platform/signing/detached-jws';
import { verifyAnswer } from '../../platform/signing/verify-evidence';
import { entryHash, genesisHash, trailEntryId, type TrailEntry } from './trail-entry';

export interface VerifiedTrail {
  caseId: string;
  entries: number;
  head: string;
  kids: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `data` of a saved GET /api/v1/cases/{id} body (or that data alone) when it holds a trail; else null. */
export function caseTrailDocument(doc: unknown): { caseId: string; trail: unknown[] } | null {
  const data = isObject(doc) && isObject(doc.data) ? doc.data : doc;
  if (!isObject(data) || !Array.isArray(data.trail) || typeof data.id !== 'string') return null;
  return { caseId: data.id, trail: data.trail };
}

/**
 * Checks a case's audit trail: entries 1..n in order, each signed by a key of `jwks` exactly as an answer is (its
 * whole body and hash, request id `case:<id>:<seq>` bound in the JWS header), each hash the SHA-256 of its body's
 * canonical JSON, each `prev_hash` its predecessor's hash (the first: the case's genesis), each `before` the previous
 * `after`. Changing, dropping, reordering or splicing an entry breaks it. Throws InvalidSignature with the reason.
 */
export async function verifyCaseTrail(doc: unknown, jwks: unknown): Promise<VerifiedTrail> {
  const found = caseTrailDocument(doc);
  if (!found) throw new InvalidSignature('not a case with its trail');
  const { caseId, trail } = found;
  if (trail.length === 0) throw new InvalidSignature('the trail is empty');
  let prev = genesisHash(caseId);
  let prevAfter: unknown = null;
  const kids = new Set<string>();
  for (const [index, raw] of trail.entries()) {
    const seq = index + 1;
    if (!isObject(raw)) throw new InvalidSignature(`entry ${seq} is not an object`);
    const entry = raw as unknown as TrailEntry;
    if (entry.seq !== seq) throw new InvalidSignature(`entry ${seq} says seq ${String(entry.seq)}`);
    if (entry.case_id !== caseId || entry.request_id !== trailEntryId(caseId, seq))
      throw new InvalidSignature(`entry ${seq} belongs to another case`);
    const { kid } = await verifyAnswer(entry, jwks).catch((err: unknown) => {
      throw new InvalidSignature(`entry ${seq}: ${err instanceof Error ? err.message : String(err)}`);
    });
    kids.add(kid);
    const { hash, signature: _signature, ...body } = entry;
    if (entryHash(body) !== hash) throw new InvalidSignature(`entry ${seq}: its hash does not match its content`);
    if (body.prev_hash !== prev) throw new InvalidSignature(`entry ${seq}: prev_hash does not name entry ${seq - 1}`);
    if (seq > 1 && canonicalJson(body.before) !== canonicalJson(prevAfter))
      throw new InvalidSignature(`entry ${seq}: its state before is not entry ${seq - 1}'s state after`);
    prev = hash;
    prevAfter = body.after;
  }
  return { caseId, entries: trail.length, head: prev, kids: [...kids] };
}
