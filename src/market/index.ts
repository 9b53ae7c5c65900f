/** Answer shapes the dashboard renders (types only: nothing of the server enters the browser bundle). */
export type { candleSchema, candlesResponse } from './routes/candles-route';
export type { capabilitiesResponse } from './routes/capabilities-route';
