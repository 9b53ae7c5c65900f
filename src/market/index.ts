/** What the engine reads of market data: the stored closes that price a transfer at its time (src/screening). */
export { createStoredCloses } from './store/market-closes';
/** Answer shapes the dashboard renders (types only: nothing of the server enters the browser bundle). */
export type { candleSchema, candlesResponse } from './routes/candles-route';
export type { capabilitiesResponse } from './routes/capabilities-route';
