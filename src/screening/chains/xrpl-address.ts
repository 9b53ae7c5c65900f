import { createHash } from 'node:crypto';
import { base58xrp, utils } from '@scure/base';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
/**
 * Base58check in the XRP Ledger's alphabet: @scure/base's `createBase58check` is fixed to bitcoin's alphabet, so its
 * own pieces are chained the same way over `base58xrp` (4-byte double SHA-256 checksum).
 */
const base58checkXrp = utils.chain(
  utils.checksum(4, (data) => sha256(sha256(data))),
  base58xrp,
);
/** The longest classic address (25 bytes) is 34 characters: nothing longer is decoded (base58 is quadratic). */
const MAX_LENGTH = 35;

/**
 * A classic XRP Ledger address (`r…`, version 0 over a 20-byte account id, checksum holding) verbatim, or null:
 * base58 is case-sensitive, and X-addresses and seeds are something else.
 */
export function normalizeXrplAddress(text: string): string | null {
  if (!text.startsWith('r') || text.length > MAX_LENGTH) return null;
  let bytes: Uint8Array;
  try {
    bytes = base58checkXrp.decode(text);
  } catch {
    return null;
  }
  return bytes.length === 21 && bytes[0] === 0 ? text : null;
}
