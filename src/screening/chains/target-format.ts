import { isAddress as isSolanaAddress } from '@solana/kit';
import { type BitcoinNetwork, normalizeBitcoinAddress } from './bitcoin-address';
import { type Chain, EVM_CHAIN_NAMES, type EvmChain, UTXO_NETWORK_NAMES, type UtxoNetworkChain } from './chain';
import { normalizeBnbBeaconAddress } from './bnb-beacon-address';
import { toTronBase58 } from './tron-address';
import { normalizeXrplAddress } from './xrpl-address';
import { UTXO_NETWORKS } from './utxo-networks';

/**
 * Syntax checks per chain, run at the API edge so a malformed address or hash is a 400 before any
 * credit is held. Returns the canonical form the reference data use (see data/risk/SOURCES.md:
 * EVM and bech32 lower-cased, base58 and XRP kept verbatim, Bitcoin Cash as CashAddr without its prefix), or null
 * when the value cannot be one.
 */
const BASE58 = '[1-9A-HJ-NP-Za-km-z]';

/**
 * One way a chain writes addresses. `readOnChain` is false for a format no node of this service reads (the
 * chain's client speaks another format): such an address is screened against the reference data alone, and says so.
 */
export interface AddressFormat {
  /** How answers and hints name the format. */
  name: string;
  /** The canonical form, or null when `raw` is not an address of this format. */
  normalize(raw: string): string | null;
  readOnChain: boolean;
  hint: string;
}

const EVM_FORMAT: AddressFormat = {
  name: 'EVM address',
  normalize: (raw) => (/^0x[0-9a-fA-F]{40}$/.test(raw) ? raw.toLowerCase() : null),
  readOnChain: true,
  hint: '0x followed by 40 hex characters',
};

/** A test network's address form: the checksum must hold, and the version or prefix must be that network's. */
const bitcoinTestFormat = (network: Exclude<BitcoinNetwork, 'mainnet'>, hint: string): AddressFormat => ({
  name: `bitcoin ${network} address`,
  normalize: (raw) => (raw.length <= 90 ? normalizeBitcoinAddress(raw, network) : null),
  readOnChain: true,
  hint,
});

/**
 * The one bitcoin form the api accepts per BITCOIN_NETWORK: a deployment screens one network, and an address of
 * another would be read on the wrong ledger.
 */
const BITCOIN_FORMATS: Readonly<Record<BitcoinNetwork, AddressFormat>> = {
  mainnet: {
    name: 'bitcoin address',
    // Mainnet forms only, and the checksum must hold (base58check or bech32/bech32m).
    normalize: (raw) =>
      /^(bc1|BC1)[02-9ac-hj-np-zAC-HJ-NP-Z]{8,87}$/.test(raw) || new RegExp(`^[13]${BASE58}{25,34}$`).test(raw)
        ? normalizeBitcoinAddress(raw, 'mainnet')
        : null,
    readOnChain: true,
    hint: 'a base58 (1…/3…) or bech32 (bc1…) bitcoin address',
  },
  testnet: bitcoinTestFormat('testnet', 'a base58 (m…/n…/2…) or bech32 (tb1…) bitcoin testnet address'),
  regtest: bitcoinTestFormat('regtest', 'a base58 (m…/n…/2…) or bech32 (bcrt1…) bitcoin regtest address'),
  simnet: bitcoinTestFormat('simnet', 'a base58 (S…/r…) or bech32 (sb1…) bitcoin simnet address'),
};

/** The same value for every EVM network (they share the 0x address and the transaction hash formats). */
const perEvmNetwork = <Value>(value: Value) =>
  Object.fromEntries(EVM_CHAIN_NAMES.map((chain) => [chain, value])) as Record<EvmChain, Value>;

/** Each UTXO network's one format: every spelling of its addresses normalises to the form its reference data store. */
const UTXO_NETWORK_FORMATS = Object.fromEntries(
  UTXO_NETWORK_NAMES.map((chain): [UtxoNetworkChain, readonly AddressFormat[]] => {
    const { address, normalize } = UTXO_NETWORKS[chain];
    return [chain, [{ name: address.name, normalize, readOnChain: true, hint: address.hint }]];
  }),
) as Record<UtxoNetworkChain, readonly AddressFormat[]>;

/** The same value for every UTXO network beside bitcoin (their transaction ids are bitcoin's 64 hex characters). */
const perUtxoNetwork = <Value>(value: Value) =>
  Object.fromEntries(UTXO_NETWORK_NAMES.map((chain) => [chain, value])) as Record<UtxoNetworkChain, Value>;

/**
 * Every format each chain's reference data hold (data/risk, OFAC's issues), the one its node reads first; BNB Smart
 * Chain's data also hold BNB Beacon Chain addresses.
 */
const ADDRESS_FORMATS: Record<Chain, readonly AddressFormat[]> = {
  ...perEvmNetwork([EVM_FORMAT]),
  ...UTXO_NETWORK_FORMATS,
  'binance-smart-chain': [
    EVM_FORMAT,
    {
      name: 'BNB Beacon Chain address (bnb1…)',
      normalize: normalizeBnbBeaconAddress,
      readOnChain: false,
      hint: 'a BNB Beacon Chain bech32 address (bnb1…)',
    },
  ],
  bitcoin: [BITCOIN_FORMATS.mainnet],
  tron: [
    {
      name: 'tron address',
      normalize: (raw) => (new RegExp(`^T${BASE58}{33}$`).test(raw) ? toTronBase58(raw) : null),
      readOnChain: true,
      hint: 'a base58 tron address starting with T (34 characters)',
    },
  ],
  solana: [
    {
      name: 'solana address',
      // Any 32-byte public key: it has no checksum, so @solana/kit (the client's own check) decodes it and counts.
      normalize: (raw) => (isSolanaAddress(raw) ? raw : null),
      readOnChain: true,
      hint: 'a base58 solana address (32 to 44 characters)',
    },
  ],
  ripple: [
    {
      name: 'XRP Ledger address',
      normalize: normalizeXrplAddress,
      readOnChain: true,
      hint: 'a classic XRP Ledger address starting with r',
    },
  ],
};

/** The formats `chain` accepts on this deployment: bitcoin's follow BITCOIN_NETWORK. */
const formatsOf = (chain: Chain, bitcoinNetwork: BitcoinNetwork): readonly AddressFormat[] =>
  chain === 'bitcoin' ? [BITCOIN_FORMATS[bitcoinNetwork]] : ADDRESS_FORMATS[chain];

/** The format `address` (already canonical) is written in on `chain`, or null when it is none of them. */
export function addressFormatOf(
  chain: Chain,
  address: string,
  bitcoinNetwork: BitcoinNetwork = 'mainnet',
): AddressFormat | null {
  return formatsOf(chain, bitcoinNetwork).find((format) => format.normalize(address) === address) ?? null;
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

const TXID_RULES: Record<Chain, (raw: string) => string | null> = {
  ...perEvmNetwork(evmTxid),
  ...perUtxoNetwork(bitcoinTxid),
  bitcoin: bitcoinTxid,
  tron: (raw) => (HEX64.test(raw) ? raw.toLowerCase() : null),
  ripple: (raw) => (HEX64.test(raw) ? raw.toUpperCase() : null),
  // Solana transaction ids are base58 signatures (64 bytes), not hex.
  solana: (raw) => (new RegExp(`^${BASE58}{64,90}$`).test(raw) ? raw : null),
};

function bitcoinTxid(raw: string): string | null {
  return HEX64.test(raw) ? raw.toLowerCase() : null;
}

function evmTxid(raw: string): string | null {
  const hex = raw.startsWith('0x') || raw.startsWith('0X') ? raw.slice(2) : raw;
  return HEX64.test(hex) ? `0x${hex.toLowerCase()}` : null;
}

/**
 * The canonical form of `raw` in the first of the chain's formats it fits, or null. `bitcoinNetwork` is the
 * deployment's BITCOIN_NETWORK (the reference data' own addresses are mainnet's, the default).
 */
export function normalizeAddress(chain: Chain, raw: string, bitcoinNetwork: BitcoinNetwork = 'mainnet'): string | null {
  const text = raw.trim();
  for (const format of formatsOf(chain, bitcoinNetwork)) {
    const address = format.normalize(text);
    if (address) return address;
  }
  return null;
}
export const normalizeTxid = (chain: Chain, raw: string): string | null => TXID_RULES[chain](raw.trim());

export const ADDRESS_FORMAT_HINT = Object.fromEntries(
  Object.entries(ADDRESS_FORMATS).map(([chain, formats]) => [chain, formats.map((f) => f.hint).join(', or ')]),
) as Record<Chain, string>;

/** What a 400 for a refused address says it expected, on this deployment's BITCOIN_NETWORK. */
export const addressFormatHint = (chain: Chain, bitcoinNetwork: BitcoinNetwork = 'mainnet'): string =>
  formatsOf(chain, bitcoinNetwork)
    .map((f) => f.hint)
    .join(', or ');

export const TXID_FORMAT_HINT: Record<Chain, string> = {
  ...perEvmNetwork('64 hex characters, optionally prefixed with 0x'),
  ...perUtxoNetwork('64 hex characters'),
  bitcoin: '64 hex characters',
  tron: '64 hex characters',
  ripple: '64 hex characters',
  solana: 'a base58 transaction signature',
};
