import { createHash } from 'node:crypto';

export const BITCOIN_BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const XRPL_BASE58_ALPHABET = 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();

/** Raw bytes of a base58 string in the given alphabet, or null on a character outside it. */
export function decodeBase58(text: string, alphabet: string): Buffer | null {
  let value = 0n;
  for (const char of text) {
    const digit = alphabet.indexOf(char);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  const body: number[] = [];
  for (; value > 0n; value >>= 8n) body.unshift(Number(value & 0xffn));
  // Each leading "zero digit" stands for one leading zero byte, which the number itself cannot carry.
  let zeros = 0;
  while (zeros < text.length && text[zeros] === alphabet[0]) zeros += 1;
  return Buffer.from([...new Array<number>(zeros).fill(0), ...body]);
}

/**
 * Version byte + payload of a base58check string whose 4-byte checksum (double SHA-256) matches,
 * or null. Both Bitcoin and XRPL use this scheme; only the alphabet differs.
 */
export function decodeBase58Check(text: string, alphabet: string): { version: number; payload: Buffer } | null {
  if (text.length === 0 || text.length > 64) return null;
  const bytes = decodeBase58(text, alphabet);
  if (!bytes || bytes.length < 5) return null;
  const data = bytes.subarray(0, -4);
  const checksum = sha256(sha256(data)).subarray(0, 4);
  if (!checksum.equals(bytes.subarray(-4))) return null;
  return { version: data[0]!, payload: data.subarray(1) };
}
