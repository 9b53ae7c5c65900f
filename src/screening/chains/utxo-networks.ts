import { bitcoinCashQueryAddress, normalizeBitcoinCashAddress } from './bitcoin-cash-address';
import type { UtxoNetworkChain } from './chain';
import { ADDRESS_NETWORKS, normalizeNetworkAddress } from './utxo-address';

/** What makes one UTXO network screenable: bitcoin's engine and flows, its own addresses, coin and endpoint. */
export interface UtxoNetwork {
  /** The native coin's symbol (priced by the reference prices and stored closes, when there are any). */
  readonly nativeSymbol: string;
  /** Base units per coin: 10^8 on all three (litoshi, satoshi, koinu). */
  readonly decimals: 8;
  /** The screening variable that holds its Esplora-compatible API root. */
  readonly esploraVariable: 'LITECOIN_ESPLORA_URL' | 'BITCOIN_CASH_ESPLORA_URL' | 'DOGECOIN_ESPLORA_URL';
  readonly displayName: string;
  /** How answers name its addresses, and what a refused one's 400 says was expected (every form `normalize` takes). */
  readonly address: { readonly name: string; readonly hint: string };
  /**
   * The canonical form (what the reference data store), or null when `raw` is no mainnet address of the network:
   * every form of it is normalised to one, so a listed address matches however it was written.
   */
  normalize(raw: string): string | null;
  /** How the API is asked for a canonical address's history (Bitcoin Cash: with its CashAddr prefix). */
  queryAddress(canonical: string): string;
  /**
   * The canonical form of an address the API answers with. Litecoin and Dogecoin APIs write the reference data's
   * form already (base58 verbatim, bech32 lower-case), so it is kept without decoding every input and output again;
   * a Bitcoin Cash API may write the prefix or the legacy form.
   */
  fromApi(address: string): string;
}

const asWritten = (address: string) => address;

/**
 * Every UTXO network beside bitcoin. A network is one row here and its name in UTXO_NETWORK_NAMES (chain.ts); its
 * variable is in the screening config. Each is screened on mainnet only: there is no BITCOIN_NETWORK for them.
 */
export const UTXO_NETWORKS: Readonly<Record<UtxoNetworkChain, UtxoNetwork>> = {
  litecoin: {
    nativeSymbol: 'LTC',
    decimals: 8,
    esploraVariable: 'LITECOIN_ESPLORA_URL',
    displayName: 'Litecoin',
    address: { name: 'litecoin address', hint: 'a base58 (L…/M…/3…) or bech32 (ltc1…) litecoin address' },
    normalize: (raw) => normalizeNetworkAddress(raw, ADDRESS_NETWORKS.litecoin),
    queryAddress: asWritten,
    fromApi: asWritten,
  },
  'bitcoin-cash': {
    nativeSymbol: 'BCH',
    decimals: 8,
    esploraVariable: 'BITCOIN_CASH_ESPLORA_URL',
    displayName: 'Bitcoin Cash',
    address: {
      name: 'bitcoin cash address',
      hint: 'a CashAddr (q…/p…, with or without bitcoincash:) or legacy base58 (1…/3…) bitcoin cash address',
    },
    normalize: normalizeBitcoinCashAddress,
    queryAddress: bitcoinCashQueryAddress,
    fromApi: (address) => normalizeBitcoinCashAddress(address) ?? address,
  },
  dogecoin: {
    nativeSymbol: 'DOGE',
    decimals: 8,
    esploraVariable: 'DOGECOIN_ESPLORA_URL',
    displayName: 'Dogecoin',
    address: { name: 'dogecoin address', hint: 'a base58 dogecoin address (D…/A…/9…)' },
    normalize: (raw) => normalizeNetworkAddress(raw, ADDRESS_NETWORKS.dogecoin),
    queryAddress: asWritten,
    fromApi: asWritten,
  },
};
