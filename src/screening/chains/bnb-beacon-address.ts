import { bech32 } from '@scure/base';

/**
 * A BNB Beacon Chain account (`bnb1…`): bech32 (BIP-173 checksum, not bech32m; checked by @scure/base) with the
 * human-readable part `bnb` over a 20-byte account id, lower-cased (as OFAC's BNB addresses are listed), or null.
 * OFAC lists them under BNB, beside the smart chain's 0x addresses. A smart-chain node cannot read them and the Beacon
 * Chain itself was retired (BNB Chain Fusion), so they are screened against the reference data alone.
 */
export function normalizeBnbBeaconAddress(raw: string): string | null {
  const decoded = bech32.decodeUnsafe(raw);
  if (decoded?.prefix !== 'bnb') return null;
  return bech32.fromWordsUnsafe(decoded.words)?.length === 20 ? raw.toLowerCase() : null;
}
