import { canonicalJson, InvalidSignature, verifyDetached } from './detached-jws';
import { duplicateMemberName } from './duplicate-members';
import { ed25519KeyLookup } from './evidence-key-lookup';
import {
  EVIDENCE_CRIT,
  type EvidenceProtectedHeader,
  evidenceProtectedHeaderSchema,
  evidenceSignatureSchema,
} from './evidence-signature';
import { EVIDENCE_ALG } from './signing-jwk';

export interface VerifiedAnswer {
  kid: string;
  requestId: string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The `data` of a saved answer: the whole HTTP body `{success: true, data}` (nothing beside them: no signature
 * covers a member added there), or that `data` object alone.
 */
function answerData(answer: unknown): Record<string, unknown> {
  if (!isPlainObject(answer)) throw new InvalidSignature('the answer is not a JSON object');
  if (!Object.hasOwn(answer, 'data')) return answer;
  const extra = Object.keys(answer).filter((name) => name !== 'success' && name !== 'data');
  if (extra.length > 0 || answer.success !== true)
    throw new InvalidSignature(
      `the answer's body holds ${extra.length > 0 ? extra.join(', ') : 'success other than true'} beside data, ` +
        'which no signature covers',
    );
  if (!isPlainObject(answer.data)) throw new InvalidSignature("the answer's data is not a JSON object");
  return answer.data;
}

/**
 * Checks a saved screening answer (the parsed body of GET /api/v1/kyt/job/:id or …/fullresponse, or its `data`)
 * against a key set. What is verified is always the answer's whole `data` without its `signature` member, as its
 * RFC 8785 canonical JSON: never a member an unsigned field names. The JWS must be EdDSA by a public Ed25519 key of
 * `jwks`, and its protected header must bind typ, `request_id` (equal to data.request_id), `canon` RFC8785 and
 * `signed` data, all listed in `crit`. Signatures made before that binding existed (no request_id in the header)
 * are refused. The unsigned copies beside the JWS (kid, alg, signed, canonicalization) must agree with the header.
 * Throws InvalidSignature (or jose's error) with the reason; returns the kid that verified it.
 */
export async function verifyAnswer(answer: unknown, jwks: unknown): Promise<VerifiedAnswer> {
  const data = answerData(answer);
  if (!Object.hasOwn(data, 'signature'))
    throw new InvalidSignature('the answer carries no signature (only completed jobs are signed)');
  const parsed = evidenceSignatureSchema.safeParse(data.signature);
  if (!parsed.success)
    throw new InvalidSignature(`the signature is malformed: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const signature = parsed.data;
  const { signature: _signature, ...signed } = data;
  if (typeof signed.request_id !== 'string') throw new InvalidSignature('the answer has no request_id');

  const verified = await verifyDetached(signature.jws, canonicalJson(signed), ed25519KeyLookup(jwks), {
    algorithms: [EVIDENCE_ALG],
    crit: EVIDENCE_CRIT,
  });
  const header = protectedHeaderOf(verified);
  if (header.request_id !== signed.request_id)
    throw new InvalidSignature(
      `signed for request ${header.request_id}, but the answer is request ${String(signed.request_id)}`,
    );
  const copies: [string, unknown, unknown][] = [
    ['kid', signature.kid, header.kid],
    ['alg', signature.alg, header.alg],
    ['signed', signature.signed, header.signed],
    ['canonicalization', signature.canonicalization, header.canon],
  ];
  for (const [name, copy, bound] of copies)
    if (copy !== bound)
      throw new InvalidSignature(`signature.${name} is ${String(copy)}, but the signed header says ${String(bound)}`);
  return { kid: header.kid, requestId: header.request_id };
}

function protectedHeaderOf(verified: unknown): EvidenceProtectedHeader {
  const header = evidenceProtectedHeaderSchema.safeParse(verified);
  if (header.success) return header.data;
  if (isPlainObject(verified) && !Object.hasOwn(verified, 'request_id'))
    throw new InvalidSignature(
      'the signature binds no request id (made before signatures bound it, or not by this service): refused; ' +
        'fetch the answer again for a current signature',
    );
  const problems = header.error.issues.map((i) => `${i.path.join('.') || 'header'}: ${i.message}`);
  throw new InvalidSignature(`the signed header is not an evidence header (${problems.join('; ')})`);
}

/** verifyAnswer over the text of a saved answer, refused when an object in it names a member twice. */
export async function verifyAnswerText(text: string, jwks: unknown): Promise<VerifiedAnswer> {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new InvalidSignature('the answer is not JSON');
  }
  const repeated = duplicateMemberName(text);
  if (repeated !== undefined)
    throw new InvalidSignature(`the member ${JSON.stringify(repeated)} appears twice in one object`);
  return verifyAnswer(answer, jwks);
}
