import { BITCOIN_BASE58_ALPHABET, decodeBase58Check } from './base58check';

/** Base58check version bytes: mainnet P2PKH (1…), P2SH (3…); testnet P2PKH (m…/n…), P2SH (2…). */
const BASE58_VERSIONS = new Set([0x00, 0x05, 0x6f, 0xc4]);
/** Mainnet and testnet/signet; regtest (bcrt) is never screened. */
const SEGWIT_HRPS = new Set(['bc', 'tb']);

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_CONST = 1;
const BECH32M_CONST = 0x2bc830a3;
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i += 1) if ((top >>> i) & 1) chk ^= GENERATOR[i]!;
  }
  return chk >>> 0;
}

const hrpExpand = (hrp: string) =>
  [...hrp]
    .map((c) => c.charCodeAt(0) >> 5)
    .concat(
      [0],
      [...hrp].map((c) => c.charCodeAt(0) & 31),
    );

/** 5-bit groups to bytes (BIP-173 convertbits without padding): null when the padding is not zero bits < 5. */
function fromWords(words: number[]): number[] | null {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  for (const w of words) {
    acc = (acc << 5) | w;
    bits += 5;
    while (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
    acc &= (1 << bits) - 1;
  }
  return bits >= 5 || acc !== 0 ? null : out;
}

/**
 * A segwit address per BIP-173 (witness v0, bech32 checksum) and BIP-350 (v1–v16, bech32m), lower-cased,
 * or null. The checksum constant must match the witness version, so a v1 address with a bech32 checksum fails.
 */
function normalizeSegwit(raw: string): string | null {
  if (raw.length > 90 || (raw !== raw.toLowerCase() && raw !== raw.toUpperCase())) return null;
  const text = raw.toLowerCase();
  const sep = text.lastIndexOf('1');
  const hrp = text.slice(0, sep);
  if (sep < 1 || !SEGWIT_HRPS.has(hrp) || text.length - sep - 1 < 7) return null;
  const data: number[] = [];
  for (const c of text.slice(sep + 1)) {
    const v = CHARSET.indexOf(c);
    if (v < 0) return null;
    data.push(v);
  }
  const version = data[0]!;
  const expected = version === 0 ? BECH32_CONST : BECH32M_CONST;
  if (version > 16 || polymod([...hrpExpand(hrp), ...data]) !== expected) return null;
  const program = fromWords(data.slice(1, -6));
  if (!program || program.length < 2 || program.length > 40) return null;
  if (version === 0 && program.length !== 20 && program.length !== 32) return null;
  return text;
}

/**
 * Canonical form of a bitcoin address (mainnet or testnet), or null: base58check P2PKH/P2SH verbatim
 * (base58 is case-sensitive), segwit lower-cased (the reference lists store it that way).
 */
export function normalizeBitcoinAddress(raw: string): string | null {
  const text = raw.trim();
  if (/^(bc|tb)1/i.test(text)) return normalizeSegwit(text);
  const decoded = decodeBase58Check(text, BITCOIN_BASE58_ALPHABET);
  return decoded && decoded.payload.length === 20 && BASE58_VERSIONS.has(decoded.version) ? text : null;
}
