import { createHash } from 'node:crypto';

/**
 * Tron addresses: 21 bytes (0x41 + a 20-byte EVM-style account id), written either as hex `41…` (how
 * raw transactions and the FullNode without `visible` spell them) or base58check `T…` (how users,
 * TronGrid's TRC-20 endpoint and the reference lists spell them). Base58 is the canonical form here.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const DIGIT = new Map([...ALPHABET].map((c, i) => [c, BigInt(i)]));
const PREFIX = 0x41;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();
const checksumOf = (payload: Uint8Array) => sha256(sha256(payload)).subarray(0, 4);

function encodeBase58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

function decodeBase58(text: string): Uint8Array | null {
  let n = 0n;
  for (const c of text) {
    const digit = DIGIT.get(c);
    if (digit === undefined) return null;
    n = n * 58n + digit;
  }
  const hex = n === 0n ? '' : n.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = /^1*/.exec(text)![0].length;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

/** `41…` hex (42 chars, optional 0x) or a bare 20-byte hex id (40 chars, as in event topics) → base58, or null. */
export function tronHexToBase58(hex: string): string | null {
  const clean = hex.replace(/^0x/i, '').toLowerCase();
  const full = /^[0-9a-f]{40}$/.test(clean) ? `41${clean}` : clean;
  if (!/^41[0-9a-f]{40}$/.test(full)) return null;
  const payload = Buffer.from(full, 'hex');
  return encodeBase58(Buffer.concat([payload, checksumOf(payload)]));
}

/** Base58check `T…` → `41…` hex, or null when the alphabet, length, version byte or checksum is wrong. */
export function tronBase58ToHex(text: string): string | null {
  const bytes = decodeBase58(text);
  if (bytes?.length !== 25 || bytes[0] !== PREFIX) return null;
  const payload = bytes.subarray(0, 21);
  if (!Buffer.from(checksumOf(payload)).equals(Buffer.from(bytes.subarray(21)))) return null;
  return Buffer.from(payload).toString('hex');
}

/** Either spelling → canonical base58, or null when it is not a Tron address. */
export function toTronBase58(raw: string): string | null {
  // A bare 0x… id is an EVM address; accepting it here would let an Ethereum address pass as Tron.
  if (/^41[0-9a-fA-F]{40}$/.test(raw)) return tronHexToBase58(raw);
  return tronBase58ToHex(raw) ? raw : null;
}
