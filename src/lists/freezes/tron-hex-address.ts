import { tronHexToBase58 } from '../../screening';

/**
 * TronGrid's decoded event results spell addresses as EVM-style hex (`0x` + 20 bytes, or `41` + 20 bytes); the
 * reference data spell TRON addresses in base58check (`T…`).
 */
const BASE58 = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

/** `0x…` / `41…` hex or base58 `T…` → base58, or null when it is none of these. */
export const tronAddressOf = (raw: string): string | null => (BASE58.test(raw) ? raw : tronHexToBase58(raw));
