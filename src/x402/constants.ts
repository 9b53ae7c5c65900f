/** Base mainnet and its native USDC (Circle), as the x402 "exact" scheme prices "$1.00" there. */
export const X402_NETWORK = 'eip155:8453' as const;
export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const REPORT_PRICE = '$1.00';
/** $1.00 in USDC base units (6 decimals). */
export const REPORT_PRICE_UNITS = '1000000';
export const REPORT_ROUTES = {
  kyt: 'POST /api/v1/x402/kyt/report',
  kya: 'POST /api/v1/x402/kya/report',
  kye: 'POST /api/v1/x402/kye/report',
} as const;
export type ReportKind = keyof typeof REPORT_ROUTES;
