import { importSigningKey, type CurrentSigningKey, type SigningKeyRing } from './key-ring';
import { publicJwkOf, type PrivateSigningJwk } from './signing-jwk';

/**
 * The keys of EVIDENCE_SIGNING_KEYS (checked by the config): the first signs, every one is published. The
 * operator rotates by putting a new key first and keeping the old ones after it for as long as answers signed
 * with them must verify.
 */
export function createConfiguredKeyRing(keys: readonly [PrivateSigningJwk, ...PrivateSigningJwk[]]): SigningKeyRing {
  const published = keys.map(publicJwkOf);
  let signing: Promise<CurrentSigningKey> | undefined;
  return {
    signingKey: () => {
      signing ??= importSigningKey(keys[0]);
      return signing;
    },
    publicKeys: async () => published,
    refresh: async () => undefined,
  };
}
