import { canonicalJson, signDetached } from './detached-jws';
import {
  EVIDENCE_CANONICALIZATION,
  EVIDENCE_CRIT,
  EVIDENCE_SIGNED,
  type EvidenceSignature,
  evidenceProtectedHeader,
} from './evidence-signature';
import type { SigningKeyRing } from './key-ring';
import { EVIDENCE_ALG } from './signing-jwk';

/** An answer's `data` as it will be sent, its signature aside. */
export type UnsignedAnswerData = { request_id: string } & Record<string, unknown>;

export interface EvidenceSigner {
  /**
   * Signs the canonical JSON of an answer's whole `data` (without `signature`); its request id, the
   * canonicalization and what is signed go into the protected header (evidence-signature.ts).
   */
  signAnswer(data: UnsignedAnswerData): Promise<EvidenceSignature>;
  /**
   * This signer on the key that signs now, read here: what a transaction signs with. A Postgres key ring's read inside
   * one asks the pool for a second connection, which deadlocks the pool once every connection holds such a transaction.
   */
  pinned(): Promise<EvidenceSigner>;
}

/** Ed25519 is deterministic: the same data signed with the same key gives the same JWS on every poll. */
export function createEvidenceSigner(keys: Pick<SigningKeyRing, 'signingKey'>): EvidenceSigner {
  return {
    async signAnswer(data) {
      if (typeof data.request_id !== 'string' || data.request_id === '')
        throw new TypeError('an answer to sign needs its request_id');
      if (Object.hasOwn(data, 'signature')) throw new TypeError('the answer to sign already carries a signature');
      const signer = await keys.signingKey();
      const header = evidenceProtectedHeader(signer.kid, data.request_id);
      const jws = await signDetached(canonicalJson(data), signer.key, header, EVIDENCE_CRIT);
      return {
        jws,
        kid: signer.kid,
        alg: EVIDENCE_ALG,
        signed: EVIDENCE_SIGNED,
        canonicalization: EVIDENCE_CANONICALIZATION,
      };
    },
    async pinned() {
      const signer = await keys.signingKey();
      return createEvidenceSigner({ signingKey: () => Promise.resolve(signer) });
    },
  };
}
