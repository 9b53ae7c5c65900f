import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'cs_live_';

/** 32 random bytes, base64url: 256 bits of entropy, safe in headers and URLs. */
export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Keys are looked up by SHA-256: they are high-entropy, so a slow password hash adds nothing but latency. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** What the dashboard shows to tell keys apart without revealing them. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}
