import { bech32, bech32m } from '@scure/base';

export interface Bech32Decoded {
  hrp: string;
  /** The data part as 5-bit words, checksum removed. */
  words: number[];
  /** Which checksum held: BIP-173 bech32 or BIP-350 bech32m (segwit v1+ must use the latter). */
  encoding: 'bech32' | 'bech32m';
}

/**
 * A bech32 or bech32m string whose human-readable part is one of `hrps`, or null: one letter case throughout,
 * at most 90 characters and a valid checksum (BIP-173/350, checked by @scure/base).
 */
export function decodeBech32(raw: string, hrps: ReadonlySet<string>): Bech32Decoded | null {
  for (const [encoding, coder] of [
    ['bech32', bech32],
    ['bech32m', bech32m],
  ] as const) {
    const decoded = coder.decodeUnsafe(raw);
    if (decoded && hrps.has(decoded.prefix)) return { hrp: decoded.prefix, words: decoded.words, encoding };
  }
  return null;
}

/** 5-bit words back to bytes, or null when the padding is 5 bits or more or not all zero (BIP-173 convertbits). */
export function wordsToBytes(words: number[]): Uint8Array | null {
  return bech32.fromWordsUnsafe(words) ?? null;
}
