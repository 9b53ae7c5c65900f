import { type Chain, normalizeAddress, SUPPORTED_CHAINS } from '../../screening';

/**
 * How an OFAC "Digital Currency Address - <ASSET>" feature becomes a (chain, address) the screening matches on,
 * with the same chain names and normalisation as data/risk/sanctions_ofac.csv (data/risk/SOURCES.md).
 */

/** The chain of each OFAC asset code that names one chain. */
const ASSET_CHAINS: Readonly<Record<string, string>> = {
  XBT: 'bitcoin',
  ETH: 'ethereum',
  TRX: 'tron',
  LTC: 'litecoin',
  XMR: 'monero',
  BCH: 'bitcoin-cash',
  DASH: 'dash',
  ZEC: 'zcash',
  ARB: 'arbitrum',
  // BSC (the smart chain's 0x addresses) and BNB (bnb1… addresses of the BNB Beacon Chain) are listed under one name.
  BSC: 'binance-smart-chain',
  BNB: 'binance-smart-chain',
  BTG: 'bitcoin-gold',
  BSV: 'bitcoin-sv',
  ETC: 'ethereum-classic',
  XRP: 'ripple',
  SOL: 'solana',
  XVG: 'verge',
};

const EVM = /^0x[0-9a-fA-F]{40}$/;
/** Human-readable part, the separator 1, then data in the bech32 alphabet; one case throughout (BIP 173). */
const BECH32 = /^[a-z]{1,83}1[02-9ac-hj-np-z]{6,}$/;

const isScreenedChain = (chain: string): chain is Chain => (SUPPORTED_CHAINS as readonly string[]).includes(chain);

/**
 * The chain whose address format `address` (normalised) is in, checksum and all, among the chains the service
 * screens: an EVM address is the same key on every EVM chain and goes under ethereum; a P2SH address (3…) is
 * bitcoin's and also Litecoin's old form, and one filed under a token is bitcoin's (Omni Layer USDT).
 * Null when none or several.
 */
function chainOfFormat(address: string): Chain | null {
  const fits = SUPPORTED_CHAINS.filter((chain) => normalizeAddress(chain, address) === address);
  if (fits.length > 0 && EVM.test(address)) return 'ethereum';
  if (fits.includes('bitcoin')) return 'bitcoin';
  return fits.length === 1 ? fits[0]! : null;
}

/**
 * The chain an address of `asset` is screened on. Tokens (USDT, USDC) are listed under the token, not the chain:
 * the address format says which chain (0x → ethereum, T… → tron, 1…/3…/bc1… → bitcoin, as Omni Layer
 * USDT; a 32-byte base58 key → solana). OFAC also files the odd address under another chain's asset (the Tron address
 * TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzq under XBT): one that is not an address of its asset's chain but is of another
 * screened chain goes under that chain, where it can be screened. An asset code OFAC adds later, or a token address
 * of an unknown format, keeps its addresses under the lower-cased code instead of dropping a sanctioned address: map
 * it above when it appears.
 */
export function chainOf(asset: string, address: string): string {
  const known = ASSET_CHAINS[asset];
  // Any spelling of its chain's addresses stays there: a legacy 1… Bitcoin Cash address is one, stored as CashAddr.
  if (known && isScreenedChain(known) && normalizeAddress(known, address) === null)
    return chainOfFormat(address) ?? known;
  if (known) return known;
  return (asset === 'USDT' || asset === 'USDC' ? chainOfFormat(address) : null) ?? asset.toLowerCase();
}

/**
 * The address as the list stores it for `chain`: the screened chain's canonical form (what a screening looks up: a
 * Bitcoin Cash address as CashAddr without its prefix, whichever way OFAC wrote it), else as
 * `normaliseAddress` left it.
 */
export const listedAddress = (chain: string, address: string): string =>
  (isScreenedChain(chain) ? normalizeAddress(chain, address) : null) ?? address;

/**
 * EVM addresses and bech32 addresses (bc1…, ltc1…, bnb1…) are case-insensitive and compared lower-cased; every
 * other format (base58, XRP r…, Monero) is case-sensitive and kept verbatim.
 */
export function normaliseAddress(raw: string): string {
  const address = raw.trim();
  if (EVM.test(address)) return address.toLowerCase();
  const lower = address.toLowerCase();
  if ((address === lower || address === address.toUpperCase()) && BECH32.test(lower)) return lower;
  return address;
}
