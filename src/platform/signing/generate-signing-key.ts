import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { EVIDENCE_ALG, type PrivateSigningJwk, privateSigningJwkSchema } from './signing-jwk';

/** A new Ed25519 key pair as a private JWK whose kid is its RFC 7638 thumbprint (unique, and derived, not chosen). */
export async function generateSigningJwk(): Promise<PrivateSigningJwk> {
  const { privateKey } = await generateKeyPair(EVIDENCE_ALG, { crv: 'Ed25519', extractable: true });
  const { kty, crv, x, d } = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint({ kty, crv, x });
  return privateSigningJwkSchema.parse({ kty, crv, x, d, kid, alg: EVIDENCE_ALG, use: 'sig' });
}
