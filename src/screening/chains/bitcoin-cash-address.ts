import { decodeCashAddress, encodeCashAddress } from 'ecashaddrjs';
import { ADDRESS_NETWORKS, base58AddressHash } from './utxo-address';

/** Mainnet's CashAddr prefix; the reference data (data/risk, OFAC) write the address without it. */
const PREFIX = 'bitcoincash';
/** `bitcoincash:` and the longest payload (a 32-byte P2SH hash, 61 characters), with room to spare. */
const MAX_LENGTH = 100;

/** The payload, lower-cased, of a mainnet CashAddr (prefix optional), checksum checked by ecashaddrjs; else null. */
function cashAddrPayload(text: string): string | null {
  const colon = text.indexOf(':');
  const prefix = colon < 0 ? PREFIX : text.slice(0, colon).toLowerCase();
  const payload = colon < 0 ? text : text.slice(colon + 1);
  // Another network's prefix (ecash:, bchtest:) is not a Bitcoin Cash mainnet address, whatever its checksum says.
  if (prefix !== PREFIX) return null;
  // A CashAddr is all one case (the spec refuses mixed case); the checksum covers the prefix, so it is checked
  // against `bitcoincash` even when the caller left the prefix out.
  if (payload !== payload.toLowerCase() && payload !== payload.toUpperCase()) return null;
  try {
    const decoded = decodeCashAddress(`${PREFIX}:${payload.toLowerCase()}`);
    return decoded.prefix === PREFIX ? payload.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * The one form a Bitcoin Cash address is stored and matched in: its CashAddr without the `bitcoincash:` prefix,
 * lower-case (the form of data/risk/sanctions_ofac.csv). A legacy base58 address (1…/3…, bitcoin's versions) is the
 * same key written the old way: it is re-encoded as CashAddr, so a listed address matches in either spelling. Null
 * for anything else, a broken checksum, another network's prefix, or a token-aware (z…/r…) address, which
 * ecashaddrjs does not decode.
 */
export function normalizeBitcoinCashAddress(raw: string): string | null {
  const text = raw.trim();
  if (text.length === 0 || text.length > MAX_LENGTH) return null;
  const legacy = base58AddressHash(text, ADDRESS_NETWORKS.bitcoinCashLegacy);
  if (legacy) return encodeCashAddress(PREFIX, legacy.type, legacy.hash).slice(PREFIX.length + 1);
  return cashAddrPayload(text);
}

/** The address as a Bitcoin Cash API is asked for it: the full CashAddr, prefix included. */
export const bitcoinCashQueryAddress = (canonical: string): string => `${PREFIX}:${canonical}`;
