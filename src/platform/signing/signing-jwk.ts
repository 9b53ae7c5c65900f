import { z } from 'zod';

/** The one JWS algorithm evidence is signed with: Ed25519 (RFC 8037), named `EdDSA` in the JWS header. */
export const EVIDENCE_ALG = 'EdDSA';

/** 32 bytes in base64url without padding: an Ed25519 public key (`x`) or private seed (`d`). */
const ed25519Bytes = z.string().regex(/^[A-Za-z0-9_-]{43}$/, '32 bytes in base64url (43 characters)');
const kid = z
  .string()
  .regex(/^[\x21-\x7e]{1,128}$/, 'a kid of 1 to 128 printable ASCII characters, no spaces')
  .meta({ description: 'The key id a verifier looks the key up by in /.well-known/jwks.json' });

/** What a verifier needs, and all that /.well-known/jwks.json publishes of a key. */
export const publicSigningJwkSchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: ed25519Bytes,
  kid,
  alg: z.literal(EVIDENCE_ALG),
  use: z.literal('sig'),
});
export type PublicSigningJwk = z.output<typeof publicSigningJwkSchema>;

/** A private Ed25519 JWK as an operator configures it; `alg` and `use` may be left out (they can only be these). */
export const privateSigningJwkSchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: ed25519Bytes,
  d: ed25519Bytes,
  kid,
  alg: z.literal(EVIDENCE_ALG).optional(),
  use: z.literal('sig').optional(),
});
export type PrivateSigningJwk = z.output<typeof privateSigningJwkSchema>;

/** The public half, with exactly the members the JWKS publishes. */
export function publicJwkOf(jwk: PrivateSigningJwk | PublicSigningJwk): PublicSigningJwk {
  return { kty: 'OKP', crv: 'Ed25519', x: jwk.x, kid: jwk.kid, alg: EVIDENCE_ALG, use: 'sig' };
}
