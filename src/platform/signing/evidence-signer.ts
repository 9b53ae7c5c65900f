import { canonicalJson, signDetached } from './detached-jws';
import { EVIDENCE_CANONICALIZATION, EVIDENCE_TYP, type EvidenceSignature } from './evidence-signature';
import type { SigningKeyRing } from './key-ring';
import { EVIDENCE_ALG } from './signing-jwk';

export interface EvidenceSigner {
  /** Signs the canonical JSON of `value`; `signed` names where the value sits in the answer. */
  sign(value: unknown, signed: string): Promise<EvidenceSignature>;
}

/** Ed25519 is deterministic: the same value signed with the same key gives the same JWS on every poll. */
export function createEvidenceSigner(keys: Pick<SigningKeyRing, 'signingKey'>): EvidenceSigner {
  return {
    async sign(value, signed) {
      const signer = await keys.signingKey();
      const jws = await signDetached(canonicalJson(value), signer, EVIDENCE_TYP);
      return { jws, kid: signer.kid, alg: EVIDENCE_ALG, signed, canonicalization: EVIDENCE_CANONICALIZATION };
    },
  };
}
