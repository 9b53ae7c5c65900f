import { createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { canonicalJson, InvalidSignature, verifyDetached } from './detached-jws';
import { EVIDENCE_CANONICALIZATION, EVIDENCE_TYP, type EvidenceSignature } from './evidence-signature';
import { EVIDENCE_ALG } from './signing-jwk';

/**
 * Checks that `signature` was made over `value` (as its RFC 8785 canonical JSON) by a key of `jwks`. Throws when
 * it was not: a changed value, an unknown kid, another algorithm or typ. Returns the kid that verified it.
 */
export async function verifyEvidence(
  signature: EvidenceSignature,
  value: unknown,
  jwks: JSONWebKeySet,
): Promise<{ kid: string }> {
  if (signature.alg !== EVIDENCE_ALG) throw new InvalidSignature(`alg is ${signature.alg}, expected ${EVIDENCE_ALG}`);
  if (signature.canonicalization !== EVIDENCE_CANONICALIZATION)
    throw new InvalidSignature(`canonicalization is ${signature.canonicalization}, expected RFC8785`);
  const { kid } = await verifyDetached(signature.jws, canonicalJson(value), createLocalJWKSet(jwks), EVIDENCE_TYP);
  // The outer kid is a convenience copy; the protected header's is the signed one, and they must agree.
  if (kid !== signature.kid) throw new InvalidSignature(`signed by ${kid}, but the answer says ${signature.kid}`);
  return { kid };
}
