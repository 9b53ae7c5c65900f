import type { Range } from './policy-types';

/** 1234567 → "1,234,567"; 0.05 → "0.05". */
export const figure = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 6 });

export const rangeWords = ([lo, hi]: Range): string => `from ${figure(lo)} to ${figure(hi)}`;

/** "gambling" → "gambling", "high_risk_exchange" → "high risk exchange". */
export const categoryName = (category: string): string => category.replace(/_/g, ' ');

/** "Strict gambling v2": how answers, lists and pickers name a policy version. */
export const policyVersionName = (policy: { name: string; version: number }): string =>
  `${policy.name} v${policy.version}`;
