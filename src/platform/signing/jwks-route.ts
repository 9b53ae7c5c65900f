import { Router } from 'express';
import { z } from 'zod';
import type { SigningKeyRing } from './key-ring';
import { publicSigningJwkSchema } from './signing-jwk';

export const JWKS_PATH = '/.well-known/jwks.json';
/** How long a verifier or a cache may keep the key set: a key made current later is unknown to it until then. */
export const JWKS_MAX_AGE_SECONDS = 300;

export const jwksResponse = z.object({
  keys: z.array(publicSigningJwkSchema).meta({
    description: 'The key that signs now first, then every key it replaced (still needed to verify older answers)',
  }),
});

/** GET /.well-known/jwks.json: public, no credentials; any origin may read it (it holds public keys only). */
export function createJwksRouter(keys: Pick<SigningKeyRing, 'publicKeys'>): Router {
  const router = Router();
  router.get(JWKS_PATH, async (_req, res) => {
    const body: z.output<typeof jwksResponse> = { keys: await keys.publicKeys() };
    res
      .set('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`)
      .set('Access-Control-Allow-Origin', '*')
      .json(body);
  });
  return router;
}
