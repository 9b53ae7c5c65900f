import type { BITCOIN_NETWORKS } from '../config';
import { BITCOIN_BASE58_ALPHABET, decodeBase58Check } from './base58check';
import { decodeBech32, wordsToBytes } from './bech32';

/** BITCOIN_NETWORK: whose addresses are accepted and which node the client expects. */
export type BitcoinNetwork = (typeof BITCOIN_NETWORKS)[number];

interface NetworkForms {
  /** Base58check version bytes (P2PKH and P2SH). */
  base58: ReadonlySet<number>;
  /** Segwit human-readable parts. */
  hrps: ReadonlySet<string>;
}

/**
 * The address forms each network reads (btcd's chaincfg). Mainnet also takes testnet/signet forms, as it always did:
 * the reference data and the recorded Esplora fixtures hold some. Regtest shares testnet's base58 versions but has
 * its own bech32 prefix; simnet (btcd only) has its own of both.
 */
const FORMS: Readonly<Record<BitcoinNetwork, NetworkForms>> = {
  mainnet: { base58: new Set([0x00, 0x05, 0x6f, 0xc4]), hrps: new Set(['bc', 'tb']) },
  testnet: { base58: new Set([0x6f, 0xc4]), hrps: new Set(['tb']) },
  regtest: { base58: new Set([0x6f, 0xc4]), hrps: new Set(['bcrt']) },
  simnet: { base58: new Set([0x3f, 0x7b]), hrps: new Set(['sb']) },
};

/**
 * A segwit address per BIP-173 (witness v0, bech32 checksum) and BIP-350 (v1–v16, bech32m), lower-cased,
 * or null. The checksum constant must match the witness version, so a v1 address with a bech32 checksum fails.
 */
function normalizeSegwit(raw: string, hrps: ReadonlySet<string>): string | null {
  const decoded = decodeBech32(raw, hrps);
  if (!decoded || decoded.words.length < 1) return null;
  const version = decoded.words[0]!;
  if (version > 16 || decoded.encoding !== (version === 0 ? 'bech32' : 'bech32m')) return null;
  const program = wordsToBytes(decoded.words.slice(1));
  if (!program || program.length < 2 || program.length > 40) return null;
  if (version === 0 && program.length !== 20 && program.length !== 32) return null;
  return raw.toLowerCase();
}

/**
 * Canonical form of a bitcoin address of `network`, or null: base58check P2PKH/P2SH verbatim (base58 is
 * case-sensitive), segwit lower-cased (the reference data store it that way). Another network's address is null.
 */
export function normalizeBitcoinAddress(raw: string, network: BitcoinNetwork = 'mainnet'): string | null {
  const text = raw.trim();
  const forms = FORMS[network];
  // A segwit address is its prefix, "1", then data; no base58 address of these versions starts that way.
  const lower = text.toLowerCase();
  if ([...forms.hrps].some((hrp) => lower.startsWith(`${hrp}1`))) return normalizeSegwit(text, forms.hrps);
  const decoded = decodeBase58Check(text, BITCOIN_BASE58_ALPHABET);
  return decoded && decoded.payload.length === 20 && forms.base58.has(decoded.version) ? text : null;
}
