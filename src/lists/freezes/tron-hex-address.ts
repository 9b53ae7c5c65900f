import { createHash } from 'node:crypto';

/**
 * TronGrid's decoded event results spell addresses as EVM-style hex (`0x` + 20 bytes, or `41` + 20 bytes); the
 * reference data spell TRON addresses in base58check (`T…`). The same encoding as
 * src/screening/chains/tron-address.ts, which the lists feature may not import (feature boundaries).
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58 = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();

function encodeBase58(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  // A TRON payload starts with 0x41, never with a zero byte: no leading '1's to add.
  return out;
}

/** `0x…` / `41…` hex or base58 `T…` → base58, or null when it is none of these. */
export function tronAddressOf(raw: string): string | null {
  if (BASE58.test(raw)) return raw;
  const hex = raw.replace(/^0x/i, '').toLowerCase();
  const full = /^[0-9a-f]{40}$/.test(hex) ? `41${hex}` : hex;
  if (!/^41[0-9a-f]{40}$/.test(full)) return null;
  const payload = Buffer.from(full, 'hex');
  return encodeBase58(Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)]));
}
