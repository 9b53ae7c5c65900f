import { BITCOIN_BASE58_ALPHABET, decodeBase58, decodeBase58Check, XRPL_BASE58_ALPHABET } from './base58check';
import { normalizeBitcoinAddress } from './bitcoin-address';
import type { Chain } from './chain';
import { toTronBase58 } from './tron-address';

/**
 * Syntax checks per chain, run at the API edge so a malformed address or hash is a 400 before any
 * credit is held. Returns the canonical form the reference lists use (see data/risk/SOURCES.md:
 * EVM and bech32 lower-cased, base58 and XRP kept verbatim), or null when the value cannot be one.
 */
const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
const RIPPLE_ALPHABET = '[rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz]';

const ADDRESS_RULES: Record<Chain, (raw: string) => string | null> = {
  ethereum: evmAddress,
  'binance-smart-chain': evmAddress,
  bitcoin: (raw) => {
    // Mainnet forms only, and the checksum must hold (base58check or bech32/bech32m).
    const mainnet =
      /^(bc1|BC1)[02-9ac-hj-np-zAC-HJ-NP-Z]{8,87}$/.test(raw) || new RegExp(`^[13]${BASE58}{25,34}$`).test(raw);
    return mainnet ? normalizeBitcoinAddress(raw) : null;
  },
  tron: (raw) => (new RegExp(`^T${BASE58}{33}$`).test(raw) ? toTronBase58(raw) : null),
  // A Solana address is any 32-byte public key: it has no checksum, so the length after decoding is the check.
  solana: (raw) =>
    new RegExp(`^${BASE58}{32,44}$`).test(raw) && decodeBase58(raw, BITCOIN_BASE58_ALPHABET)?.length === 32
      ? raw
      : null,
  ripple: (raw) => {
    if (!new RegExp(`^r${RIPPLE_ALPHABET}{24,34}$`).test(raw)) return null;
    const decoded = decodeBase58Check(raw, XRPL_BASE58_ALPHABET);
    return decoded && decoded.version === 0 && decoded.payload.length === 20 ? raw : null;
  },
};

function evmAddress(raw: string): string | null {
  return /^0x[0-9a-fA-F]{40}$/.test(raw) ? raw.toLowerCase() : null;
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

const TXID_RULES: Record<Chain, (raw: string) => string | null> = {
  ethereum: evmTxid,
  'binance-smart-chain': evmTxid,
  bitcoin: (raw) => (HEX64.test(raw) ? raw.toLowerCase() : null),
  tron: (raw) => (HEX64.test(raw) ? raw.toLowerCase() : null),
  ripple: (raw) => (HEX64.test(raw) ? raw.toUpperCase() : null),
  // Solana transaction ids are base58 signatures (64 bytes), not hex.
  solana: (raw) => (new RegExp(`^${BASE58}{64,90}$`).test(raw) ? raw : null),
};

function evmTxid(raw: string): string | null {
  const hex = raw.startsWith('0x') || raw.startsWith('0X') ? raw.slice(2) : raw;
  return HEX64.test(hex) ? `0x${hex.toLowerCase()}` : null;
}

export const normalizeAddress = (chain: Chain, raw: string): string | null => ADDRESS_RULES[chain](raw.trim());
export const normalizeTxid = (chain: Chain, raw: string): string | null => TXID_RULES[chain](raw.trim());

export const ADDRESS_FORMAT_HINT: Record<Chain, string> = {
  ethereum: '0x followed by 40 hex characters',
  'binance-smart-chain': '0x followed by 40 hex characters',
  bitcoin: 'a base58 (1…/3…) or bech32 (bc1…) bitcoin address',
  tron: 'a base58 tron address starting with T (34 characters)',
  solana: 'a base58 solana address (32 to 44 characters)',
  ripple: 'a classic XRP Ledger address starting with r',
};

export const TXID_FORMAT_HINT: Record<Chain, string> = {
  ethereum: '64 hex characters, optionally prefixed with 0x',
  'binance-smart-chain': '64 hex characters, optionally prefixed with 0x',
  bitcoin: '64 hex characters',
  tron: '64 hex characters',
  ripple: '64 hex characters',
  solana: 'a base58 transaction signature',
};
