import { type CompactJWSHeaderParameters, type CryptoKey, importJWK } from 'jose';
import { z } from 'zod';
import { InvalidSignature } from './detached-jws';
import { EVIDENCE_ALG } from './signing-jwk';

/**
 * A key a verifier will use: a public Ed25519 JWK, whatever else the key set holds. `alg` and `use`, when the key
 * states them, must be EdDSA and sig.
 */
const verifyingJwk = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  alg: z.literal(EVIDENCE_ALG).optional(),
  use: z.literal('sig').optional(),
});

/**
 * The key that verifies a JWS whose header names `kid`: the one key of the set with that kid, and only if it is a
 * public Ed25519 key. An EC, RSA, oct or X25519 key under the kid is refused rather than tried (no key confusion,
 * e.g. HMAC keyed with the public key's bytes), and so is a kid the set holds twice (which one the publisher meant
 * is unknowable).
 */
export function ed25519KeyLookup(jwks: unknown): (header: CompactJWSHeaderParameters) => Promise<CryptoKey> {
  const keys: unknown[] = Array.isArray((jwks as { keys?: unknown } | null)?.keys)
    ? (jwks as { keys: unknown[] }).keys
    : [];
  return async ({ kid }) => {
    if (typeof kid !== 'string' || kid === '') throw new InvalidSignature('the protected header names no kid');
    const matching = keys.filter((key) => (key as { kid?: unknown } | null)?.kid === kid);
    if (matching.length === 0) throw new InvalidSignature(`the key set holds no key ${kid}`);
    if (matching.length > 1) throw new InvalidSignature(`the key set holds ${matching.length} keys named ${kid}`);
    const jwk = verifyingJwk.safeParse(matching[0]);
    if (!jwk.success) throw new InvalidSignature(`key ${kid} of the key set is not a public Ed25519 (EdDSA) key`);
    const { kty, crv, x } = jwk.data;
    return (await importJWK({ kty, crv, x }, EVIDENCE_ALG)) as CryptoKey;
  };
}
