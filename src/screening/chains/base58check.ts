import { createHash } from 'node:crypto';
import { utils } from '@scure/base';

export const BITCOIN_BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const XRPL_BASE58_ALPHABET = 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const doubleSha256 = (data: Uint8Array) => sha256(sha256(data));

/** Base58 is radix 58 over an alphabet (@scure/base's own base58 is this chain over Bitcoin's alphabet). */
const base58Over = (alphabet: string) => utils.chain(utils.radix(58), utils.alphabet(alphabet), utils.join(''));
const base58CheckOver = (alphabet: string) =>
  utils.chain(utils.checksum(4, doubleSha256), utils.radix(58), utils.alphabet(alphabet), utils.join(''));

/** Base58 decoding is quadratic in the length: nothing longer than any address is decoded. */
const MAX_LENGTH = 64;

/** Raw bytes of a base58 string in the given alphabet, or null on a character outside it. */
export function decodeBase58(text: string, alphabet: string): Buffer | null {
  if (text.length > MAX_LENGTH) return null;
  try {
    return Buffer.from(base58Over(alphabet).decode(text));
  } catch {
    return null;
  }
}

/**
 * Version byte + payload of a base58check string whose 4-byte checksum (double SHA-256) matches,
 * or null. Bitcoin, Tron and XRPL use this scheme; only the alphabet (and the version byte) differs.
 */
export function decodeBase58Check(text: string, alphabet: string): { version: number; payload: Buffer } | null {
  if (text.length === 0 || text.length > MAX_LENGTH) return null;
  let data: Uint8Array;
  try {
    data = base58CheckOver(alphabet).decode(text);
  } catch {
    return null;
  }
  if (data.length < 1) return null;
  return { version: data[0]!, payload: Buffer.from(data.subarray(1)) };
}

/** The base58check string of version byte + payload (the checksum appended). */
export function encodeBase58Check(bytes: Uint8Array, alphabet: string): string {
  return base58CheckOver(alphabet).encode(bytes);
}
