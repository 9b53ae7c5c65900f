import type { Asset } from '../chains/chain-client';

/** The name prices and answers give an asset: its symbol, or a token's contract when it has none. */
export function assetSymbol(asset: Asset): string {
  return asset.kind === 'native' ? asset.symbol : (asset.symbol ?? asset.contract);
}

/** Base units as a decimal amount of the asset (a token of unknown decimals counts whole units). */
export function toDecimal(amount: bigint, decimals: number | null): number {
  const d = decimals ?? 0;
  const s = amount.toString().padStart(d + 1, '0');
  return Number(d === 0 ? s : `${s.slice(0, -d)}.${s.slice(-d)}`);
}
