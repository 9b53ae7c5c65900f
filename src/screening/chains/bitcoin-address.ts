import { type Network, networks } from 'bitcoinjs-lib';
import type { BITCOIN_NETWORKS } from '../config';
import { type AddressNetwork, normalizeNetworkAddress } from './utxo-address';

/** BITCOIN_NETWORK: whose addresses are accepted and which node the client expects. */
export type BitcoinNetwork = (typeof BITCOIN_NETWORKS)[number];

/**
 * btcd's simnet (chaincfg.SimNetParams), which bitcoinjs-lib does not ship: P2PKH 0x3f `S…`, P2SH 0x7b `s…`, segwit
 * `sb1…`. The key fields are btcd's too, though addresses never use them.
 */
const SIMNET: Network = {
  messagePrefix: '\x18Bitcoin Signed Message:\n',
  bech32: 'sb',
  bip32: { public: 0x0420bd3a, private: 0x0420b900 },
  pubKeyHash: 0x3f,
  scriptHash: 0x7b,
  wif: 0x64,
};

/**
 * The address forms each network reads. Mainnet also takes testnet's (signet writes the same), as it always did: the
 * reference data and the recorded Esplora fixtures hold some. Regtest shares testnet's base58 versions but has its
 * own segwit prefix `bcrt`.
 */
const FORMS: Readonly<Record<BitcoinNetwork, AddressNetwork>> = {
  mainnet: { params: [networks.bitcoin, networks.testnet], segwit: true },
  testnet: { params: [networks.testnet], segwit: true },
  regtest: { params: [networks.regtest], segwit: true },
  simnet: { params: [SIMNET], segwit: true },
};

/**
 * Canonical form of a bitcoin address of `network`, or null: base58check P2PKH/P2SH verbatim (base58 is
 * case-sensitive), segwit lower-cased (the reference data store it that way), checked by bitcoinjs-lib like the
 * other UTXO networks' addresses. Another network's address is null.
 */
export const normalizeBitcoinAddress = (raw: string, network: BitcoinNetwork = 'mainnet'): string | null =>
  normalizeNetworkAddress(raw, FORMS[network]);
