import { defineErrorCodes } from '../platform/errors/error-table';

/** The market feature's codes. Pure data: src/market/workflows.ts reads MARKET_SYNC_NOT_CONFIGURED back. */
export const MARKET_ERRORS = defineErrorCodes({
  /** A symbol the market data does not hold. */
  SYMBOL_NOT_FOUND: { status: 404, retryable: false },
  /** An exchange refused a live-sync request (unknown pair, bad parameters). */
  MARKET_SOURCE_REJECTED: { status: 502, retryable: false },
  /** A live market sync workflow whose input is not the worker's MARKET_LIVE_* (endpoint, symbols, interval...). */
  MARKET_SYNC_NOT_CONFIGURED: { status: 403, retryable: false },
});
