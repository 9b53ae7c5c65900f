import { address, initEccLib, type Network, networks } from 'bitcoinjs-lib';
import * as ecc from 'tiny-secp256k1';

// bitcoinjs checks a taproot (witness v1) program is a point on the curve, which needs an ECC library: without one a
// valid bc1p…/ltc1p… address would be refused.
initEccLib(ecc);

/**
 * A network's address parameters, in bitcoinjs-lib's shape: the base58check version bytes and the segwit prefix its
 * addresses are checked against. Only the address fields matter here; the others are the network's published values.
 */
export interface AddressNetwork {
  /**
   * The parameter sets an address may match (Litecoin keeps its old P2SH version beside the new one; bitcoin mainnet
   * takes testnet's forms too).
   */
  readonly params: readonly Network[];
  /** Whether the network has segwit addresses at all: without, a bech32 string is never one of its addresses. */
  readonly segwit: boolean;
}

const LITECOIN: Network = {
  messagePrefix: '\x19Litecoin Signed Message:\n',
  bech32: 'ltc',
  bip32: { public: 0x019da462, private: 0x019d9cfe },
  pubKeyHash: 0x30,
  scriptHash: 0x32,
  wif: 0xb0,
};

const DOGECOIN: Network = {
  messagePrefix: '\x19Dogecoin Signed Message:\n',
  // Dogecoin has no segwit: `segwit: false` below refuses every bech32 string before this prefix is compared.
  bech32: 'doge',
  bip32: { public: 0x02facafd, private: 0x02fac398 },
  pubKeyHash: 0x1e,
  scriptHash: 0x16,
  wif: 0x9e,
};

export const ADDRESS_NETWORKS = {
  // Litecoin's P2SH addresses began with 3 (bitcoin's version 0x05) before M (0x32); Litecoin Core still takes both.
  litecoin: { params: [LITECOIN, { ...LITECOIN, scriptHash: 0x05 }], segwit: true },
  dogecoin: { params: [DOGECOIN], segwit: false },
  // Bitcoin Cash's legacy base58 form is bitcoin's (P2PKH 0x00, P2SH 0x05); it has no segwit (CashAddr instead).
  bitcoinCashLegacy: { params: [networks.bitcoin], segwit: false },
} as const satisfies Record<string, AddressNetwork>;

/** Longer than any base58 or segwit address (90 characters at most): not decoded at all. */
const MAX_LENGTH = 100;

const isBase58Check = (raw: string): boolean => {
  try {
    address.fromBase58Check(raw);
    return true;
  } catch {
    return false;
  }
};

/**
 * The canonical form of an address of `network`, checked by bitcoinjs-lib (checksum, version byte or segwit prefix,
 * witness version and program length), or null: base58 verbatim (it is case-sensitive), segwit lower-cased (the
 * reference data store it so).
 */
export function normalizeNetworkAddress(raw: string, network: AddressNetwork): string | null {
  const text = raw.trim();
  if (text.length === 0 || text.length > MAX_LENGTH) return null;
  const base58 = isBase58Check(text);
  if (!base58 && !network.segwit) return null;
  for (const params of network.params) {
    try {
      address.toOutputScript(text, params);
      return base58 ? text : text.toLowerCase();
    } catch {
      // Not this parameter set: the next one may match.
    }
  }
  return null;
}

/** The kind and 20-byte hash of a base58 address of `network`, or null (Bitcoin Cash re-encodes it as CashAddr). */
export function base58AddressHash(
  raw: string,
  network: AddressNetwork,
): { type: 'p2pkh' | 'p2sh'; hash: Uint8Array } | null {
  const text = raw.trim();
  if (!isBase58Check(text) || normalizeNetworkAddress(text, network) === null) return null;
  const { version, hash } = address.fromBase58Check(text);
  const params = network.params.find((p) => p.pubKeyHash === version || p.scriptHash === version);
  if (!params) return null;
  return { type: params.pubKeyHash === version ? 'p2pkh' : 'p2sh', hash };
}
