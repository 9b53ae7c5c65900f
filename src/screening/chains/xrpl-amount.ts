import type { Asset } from './chain-client';

export const XRP = { kind: 'native', symbol: 'XRP', decimals: 6 } as const satisfies Extract<Asset, { kind: 'native' }>;

export type XrplAmount =
  | string
  | { currency: string; issuer: string; value: string }
  | { mpt_issuance_id: string; value: string };

/** Issued-currency values are decimals with up to 15 significant digits; they are stored scaled to 6 places. */
export const IOU_DECIMALS = 6;

/** A decimal string ("0.001", "1.5e-7", "-12") times 10^places, truncated toward zero. */
export function scaleDecimal(value: string, places: number): bigint | null {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(value.trim());
  if (!m || `${m[2]}${m[3] ?? ''}` === '') return null;
  const frac = m[3] ?? '';
  const digits = BigInt(`${m[2]}${frac}` || '0');
  const shift = Number(m[4] ?? 0) - frac.length + places;
  // The ledger bounds exponents to -96..80; anything far beyond is a broken answer, not a number to compute.
  if (Math.abs(shift) > 200) return null;
  const scaled = shift >= 0 ? digits * 10n ** BigInt(shift) : digits / 10n ** BigInt(-shift);
  return m[1] ? -scaled : scaled;
}

/**
 * Drops → native; issued currency → token `currency.issuer` scaled by 10^6 (sub-micro dust truncates);
 * MPTs are skipped.
 */
export function parseAmount(amount: XrplAmount): { asset: Asset; amount: bigint } | null {
  if (typeof amount === 'string') return /^\d+$/.test(amount) ? { asset: XRP, amount: BigInt(amount) } : null;
  if (!('currency' in amount)) return null;
  const scaled = scaleDecimal(amount.value, IOU_DECIMALS);
  if (scaled === null) return null;
  const { currency, issuer } = amount;
  // 40-hex currency codes are non-standard tokens whose ticker is not printable as-is.
  const asset: Asset = {
    kind: 'token',
    standard: 'xrpl-iou',
    contract: `${currency}.${issuer}`,
    symbol: currency.length === 3 ? currency : null,
    decimals: IOU_DECIMALS,
  };
  return { asset, amount: scaled };
}
