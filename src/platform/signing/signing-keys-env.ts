import { createPrivateKey, createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { privateSigningJwkSchema } from './signing-jwk';

/**
 * EVIDENCE_SIGNING_KEYS: a JWKS (`{"keys":[…]}`) of private Ed25519 JWKs, each with its own kid. The first signs,
 * every one is published. Checked at start, so a key pasted wrong stops the process instead of signing answers
 * nobody can verify. No message quotes the value: it holds private keys.
 */
export const signingKeysFromEnv = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // JSON.parse's own message quotes the text around the error, which here is key material.
      ctx.addIssue({ code: 'custom', message: 'not JSON: expected a JWKS {"keys":[{kty,crv,x,d,kid}, …]}' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .object({ keys: z.array(privateSigningJwkSchema).min(1, 'at least one key (the first one signs)') })
      .superRefine(({ keys }, ctx) => {
        const kids = keys.map((k) => k.kid);
        const repeated = kids.filter((kid, i) => kids.indexOf(kid) !== i);
        if (repeated.length > 0) ctx.addIssue({ code: 'custom', message: `kid used twice: ${repeated.join(', ')}` });
        for (const key of keys) {
          if (!publicHalfMatches(key))
            ctx.addIssue({ code: 'custom', message: `key ${key.kid}: x is not the public key of its d` });
        }
      }),
  );

/** Whether `x` is the public key derived from `d`: otherwise the published key could not verify what `d` signs. */
function publicHalfMatches(key: z.output<typeof privateSigningJwkSchema>): boolean {
  try {
    // From the private key object: createPublicKey over the JWK itself would take its x as given.
    const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: key.d, x: key.x }, format: 'jwk' });
    return createPublicKey(privateKey).export({ format: 'jwk' }).x === key.x;
  } catch {
    return false;
  }
}
