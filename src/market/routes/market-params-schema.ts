import { z } from 'zod';
import { SYMBOL_PATTERN } from '../domain/candle';
import { CANDLE_LIMIT, MARKET_CONNECTOR_IDS, MARKET_DATA_TYPES, TICKER_LIMIT } from '../domain/connectors';
import { CANDLE_INTERVALS } from '../domain/intervals';
import { upperAlnumClass } from '../../platform/http/input-patterns';
import { DIGITS, EXPECTED, MAX_TIME_MS } from './market-params';

/**
 * The market routes validate by hand (market-params.ts: exact messages, parameters named in order,
 * unknown names refused). These zod schemas describe the same inputs for the OpenAPI document;
 * test/unit/market-params-schema.test.ts holds them to the validators, value by value.
 *
 * Known gap: a symbol is upper-cased before it is checked, and a few characters upper-case to two
 * letters (ß → SS, ﬁ → FI); the validator takes those, the pattern does not.
 */

/** BASE-QUOTE, any letter case (the validator upper-cases it). */
const symbol = z
  .string()
  .regex(new RegExp(`^${SYMBOL_PATTERN.replaceAll('[A-Z0-9]', upperAlnumClass())}$`), EXPECTED.symbol)
  .meta({ description: `${EXPECTED.symbol}; letter case is ignored`, examples: ['BTC-USD'] });
const interval = z.enum(CANDLE_INTERVALS).meta({ examples: ['1h'] });

const range = (min: number, max: number) => (s: string) => Number(s) >= min && Number(s) <= max;
/** Query strings carry integers as digits; OpenAPI's `integer` says the same thing. */
const queryInteger = (min: number, max: number) => z.int().min(min).max(max);
/** A JSON body may send the integer or its digits ("100"): both are read the same. */
const bodyInteger = (min: number, max: number, description: string) =>
  z
    .union([z.int().min(min).max(max), z.string().regex(DIGITS).refine(range(min, max), description)])
    .meta({ description: `${description} (a number, or its decimal digits as a string)` });

const timeDescription = {
  startTime: 'Unix ms, inclusive, on the bucket open',
  endTime: 'Unix ms, exclusive, on the bucket open; greater than startTime',
} as const;
const endAfterStart = (f: { startTime?: number | string; endTime?: number | string }) =>
  f.startTime === undefined || f.endTime === undefined || Number(f.endTime) > Number(f.startTime);
const WINDOW = { path: ['endTime'], message: 'greater than startTime (the window is [startTime, endTime))' };

/** GET /market-data/candles query (no other parameter names are accepted). */
export const candlesQuerySchema = z
  .object({
    symbol,
    interval,
    limit: queryInteger(1, CANDLE_LIMIT.max)
      .default(CANDLE_LIMIT.default)
      .meta({ description: 'How many candles at most' }),
    startTime: queryInteger(0, MAX_TIME_MS)
      .optional()
      .meta({ description: `${timeDescription.startTime}. With it: the first \`limit\` buckets from there` }),
    endTime: queryInteger(0, MAX_TIME_MS)
      .optional()
      .meta({ description: `${timeDescription.endTime}. Without startTime: the latest \`limit\` buckets before it` }),
  })
  .strict()
  .refine(endAfterStart, WINDOW);

const candleFilters = z
  .object({
    symbol,
    interval,
    startTime: bodyInteger(0, MAX_TIME_MS, timeDescription.startTime).optional(),
    endTime: bodyInteger(0, MAX_TIME_MS, timeDescription.endTime).optional(),
  })
  .strict()
  .refine(endAfterStart, WINDOW);

const connector = z.enum(MARKET_CONNECTOR_IDS as [string, ...string[]]);

/** POST /query body: one shape per data type (no other names are accepted, at either level). */
export const marketQueryBodySchema = z.discriminatedUnion('dataType', [
  z
    .object({
      connector,
      dataType: z.literal('candles').meta({ description: MARKET_DATA_TYPES.candles.description }),
      filters: candleFilters,
      limit: bodyInteger(
        1,
        CANDLE_LIMIT.max,
        `an integer from 1 to ${CANDLE_LIMIT.max}, default ${CANDLE_LIMIT.default}`,
      ).optional(),
    })
    .strict()
    .meta({ title: 'Candles query' }),
  z
    .object({
      connector,
      dataType: z.literal('ticker').meta({ description: MARKET_DATA_TYPES.ticker.description }),
      filters: z
        .object({ symbol: symbol.optional().meta({ description: 'One pair; without it every pair of the connector' }) })
        .strict()
        .nullable()
        .optional(),
      limit: bodyInteger(
        1,
        TICKER_LIMIT.max,
        `an integer from 1 to ${TICKER_LIMIT.max}, default ${TICKER_LIMIT.default}`,
      ).optional(),
    })
    .strict()
    .meta({ title: 'Ticker query' }),
]);
