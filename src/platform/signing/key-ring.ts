import { type CryptoKey, importJWK } from 'jose';
import { EVIDENCE_ALG, type PrivateSigningJwk, type PublicSigningJwk } from './signing-jwk';

/** The private key that signs now, imported once (an import costs more than a signature). */
export interface CurrentSigningKey {
  kid: string;
  key: CryptoKey;
}

/** Where the evidence keys come from: EVIDENCE_SIGNING_KEYS (configured-key-ring) or Postgres (postgres-key-ring). */
export interface SigningKeyRing {
  /** The key that signs now. */
  signingKey(): Promise<CurrentSigningKey>;
  /** Every key a verifier may meet: the one that signs now first, then the ones it replaced. */
  publicKeys(): Promise<PublicSigningJwk[]>;
  /** Reads the keys again now rather than at the next refresh (after a rotation made by this process). */
  refresh(): Promise<void>;
}

export async function importSigningKey(jwk: PrivateSigningJwk): Promise<CurrentSigningKey> {
  const { kty, crv, x, d } = jwk;
  const key = await importJWK({ kty, crv, x, d }, EVIDENCE_ALG, { extractable: false });
  return { kid: jwk.kid, key: key as CryptoKey };
}
