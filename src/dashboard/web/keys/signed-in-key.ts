import { loadCredential } from '../session';

// The same cut as displayPrefix in src/identity/api-key-format.ts: "cs_live_" and 6 more characters.
const PREFIX_LENGTH = 'cs_live_'.length + 6;

/**
 * The listed prefix of the key this tab signed in with, or null for a session JWT. /me does not say
 * which key a request used, so the page compares prefixes; it only decides whether to warn.
 */
export function signedInKeyPrefix(): string | null {
  const credential = loadCredential();
  return credential?.kind === 'apiKey' ? credential.token.slice(0, PREFIX_LENGTH) : null;
}
