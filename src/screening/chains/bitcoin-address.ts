import { BITCOIN_BASE58_ALPHABET, decodeBase58Check } from './base58check';
import { decodeBech32, wordsToBytes } from './bech32';

/** Base58check version bytes: mainnet P2PKH (1…), P2SH (3…); testnet P2PKH (m…/n…), P2SH (2…). */
const BASE58_VERSIONS = new Set([0x00, 0x05, 0x6f, 0xc4]);
/** Mainnet and testnet/signet; regtest (bcrt) is never screened. */
const SEGWIT_HRPS = new Set(['bc', 'tb']);

/**
 * A segwit address per BIP-173 (witness v0, bech32 checksum) and BIP-350 (v1–v16, bech32m), lower-cased,
 * or null. The checksum constant must match the witness version, so a v1 address with a bech32 checksum fails.
 */
function normalizeSegwit(raw: string): string | null {
  const decoded = decodeBech32(raw, SEGWIT_HRPS);
  if (!decoded || decoded.words.length < 1) return null;
  const version = decoded.words[0]!;
  if (version > 16 || decoded.encoding !== (version === 0 ? 'bech32' : 'bech32m')) return null;
  const program = wordsToBytes(decoded.words.slice(1));
  if (!program || program.length < 2 || program.length > 40) return null;
  if (version === 0 && program.length !== 20 && program.length !== 32) return null;
  return raw.toLowerCase();
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
