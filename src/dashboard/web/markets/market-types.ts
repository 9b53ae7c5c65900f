/**
 * The market-data API as the dashboard reads it, derived from the schemas the routes answer with
 * (src/market/routes/). Type-only imports: esbuild erases them, so no server code is bundled.
 */
import type { z } from 'zod';
import type { candleSchema, candlesResponse } from '../../../market';
import type { capabilitiesResponse } from '../../../market';

type CapabilitiesData = z.output<typeof capabilitiesResponse>['data'];

/** The parts of GET /api/v1/capabilities the Markets page uses. */
export type Capabilities = Pick<CapabilitiesData, 'connectors' | 'intervals' | 'limits' | 'rateLimit'>;
export type MarketConnector = Capabilities['connectors'][number];
export type MarketSymbol = MarketConnector['symbols'][number];

/** One GET /api/v1/market-data/candles bucket; `timestamp` is the bucket open, ISO 8601 UTC. */
export type Candle = z.output<typeof candleSchema>;
export type CandlesAnswer = z.output<typeof candlesResponse>;
