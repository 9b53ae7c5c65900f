import { createHash } from 'node:crypto';
import { createBase58check } from '@scure/base';

/**
 * Tron addresses: 21 bytes (0x41 + a 20-byte EVM-style account id), written either as hex `41…` (how
 * raw transactions and the FullNode without `visible` spell them) or base58check `T…` (how users,
 * TronGrid's TRC-20 endpoint and the reference data spell them). Base58 is the canonical form here.
 */
const PREFIX = 0x41;
/** Bitcoin's base58check (double SHA-256 checksum, bitcoin's alphabet), which Tron uses. */
const base58check = createBase58check((data) => new Uint8Array(createHash('sha256').update(data).digest()));
/** A Tron address is 34 characters: nothing longer is decoded (base58 decoding is quadratic in the length). */
const MAX_LENGTH = 64;

/** `41…` hex (42 chars, optional 0x) or a bare 20-byte hex id (40 chars, as in event topics) → base58, or null. */
export function tronHexToBase58(hex: string): string | null {
  const clean = hex.replace(/^0x/i, '').toLowerCase();
  const full = /^[0-9a-f]{40}$/.test(clean) ? `41${clean}` : clean;
  if (!/^41[0-9a-f]{40}$/.test(full)) return null;
  return base58check.encode(Buffer.from(full, 'hex'));
}

/** Base58check `T…` → `41…` hex, or null when the alphabet, length, version byte or checksum is wrong. */
export function tronBase58ToHex(text: string): string | null {
  if (text.length > MAX_LENGTH) return null;
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(text);
  } catch {
    return null;
  }
  if (bytes.length !== 21 || bytes[0] !== PREFIX) return null;
  return Buffer.from(bytes).toString('hex');
}

/** Either spelling → canonical base58, or null when it is not a Tron address. */
export function toTronBase58(raw: string): string | null {
  // A bare 0x… id is an EVM address; accepting it here would let an Ethereum address pass as Tron.
  if (/^41[0-9a-fA-F]{40}$/.test(raw)) return tronHexToBase58(raw);
  return tronBase58ToHex(raw) ? raw : null;
}
