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

const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
const EVM = /^0x[0-9a-fA-F]{40}$/;
const TRON = new RegExp(`^T${BASE58}{33}$`);
const BITCOIN_BASE58 = new RegExp(`^[13]${BASE58}{25,34}$`);
const SOLANA = new RegExp(`^${BASE58}{32,44}$`);
/** Human-readable part, the separator 1, then data in the bech32 alphabet; one case throughout (BIP 173). */
const BECH32 = /^[a-z]{1,83}1[02-9ac-hj-np-z]{6,}$/;
const BITCOIN_BECH32 = /^bc1[02-9ac-hj-np-z]{6,}$/;

/**
 * Tokens (USDT, USDC) are listed under the token, not the chain: the address format says which chain
 * (0x → ethereum, T… → tron, 1…/3…/bc1… → bitcoin, as Omni Layer USDT; other base58 → solana).
 */
function tokenChain(address: string): string | null {
  if (EVM.test(address)) return 'ethereum';
  if (TRON.test(address)) return 'tron';
  if (BITCOIN_BASE58.test(address) || BITCOIN_BECH32.test(address.toLowerCase())) return 'bitcoin';
  if (SOLANA.test(address)) return 'solana';
  return null;
}

/**
 * The chain an address of `asset` is screened on. An asset code OFAC adds later, or a token address of an unknown
 * format, keeps its addresses under the lower-cased code instead of dropping a sanctioned address: map it above
 * when it appears.
 */
export function chainOf(asset: string, address: string): string {
  const known = ASSET_CHAINS[asset];
  if (known) return known;
  return (asset === 'USDT' || asset === 'USDC' ? tokenChain(address) : null) ?? asset.toLowerCase();
}

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
