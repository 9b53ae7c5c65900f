import { accountSecurity } from '../../identity';
import { SHARED_ERROR_EXAMPLES } from '../../platform/openapi/error-examples';
import { errorResponse, flatError, parameterDetails, ref, structuredError } from '../../platform/openapi/error-shapes';
import { jsonBody, ok } from '../../platform/openapi/json-content';
import { queryParameters, type Paths, type ResponseObject } from '../../platform/openapi/json-schema';
import type { OperationContext } from '../../platform/openapi/operation-context';
import { rateLimitHeaders } from '../../platform/openapi/rate-limit-headers';
import { candleSchema, candlesResponse } from '../routes/candles-route';
import { capabilitiesResponse } from '../routes/capabilities-route';
import { candlesQuerySchema, marketQueryBodySchema } from '../routes/market-params-schema';
import { marketQueryResponse, tickerSchema } from '../routes/query-route';
import { MARKET_ERROR_EXAMPLES, MARKET_EXAMPLES } from './examples';

const TAG = 'Market data';

/**
 * Every answer after authentication carries the RateLimit headers; a body the JSON parser refused was
 * answered before it.
 */
const withHeaders = (response: ResponseObject, required: boolean): ResponseObject => ({
  ...response,
  headers: { ...rateLimitHeaders(required), ...response.headers },
});

const invalid = (body: boolean) =>
  withHeaders(
    errorResponse(
      `A parameter is missing, malformed, out of range, repeated or unknown (e.g. start_time), ` +
        `or endTime <= startTime${body ? '; or the body is not JSON (BAD_REQUEST when unreadable)' : ''}`,
      body ? structuredOrFlat : structuredError(['INVALID_PARAMETER'], parameterDetails),
      SHARED_ERROR_EXAMPLES.invalidParameter,
    ),
    false,
  );
const structuredOrFlat = structuredError(['INVALID_PARAMETER'], parameterDetails).or(
  flatError(['BAD_REQUEST'], [], 'Malformed request'),
);
const symbolNotFound = (what: string) =>
  withHeaders(
    errorResponse(
      `${what}; \`details.expected\` lists the symbols there are`,
      structuredError(['SYMBOL_NOT_FOUND'], parameterDetails),
      MARKET_ERROR_EXAMPLES.symbolNotFound,
    ),
    true,
  );

/** Market data: candles, capabilities and the unified query. */
export function marketOperations({ components }: OperationContext): Paths {
  components.response('Candle', candleSchema);
  components.response('Ticker', tickerSchema);
  const common = { 401: ref('MarketAuthenticationRequired'), 429: ref('RateLimited') };
  return {
    '/api/v1/market-data/candles': {
      get: {
        operationId: 'getCandles',
        tags: [TAG],
        summary: 'OHLCV candles of a symbol',
        description:
          'One primary-key range scan of stored candles (every interval is stored; ' +
          'nothing is aggregated per request). Windows are [startTime, endTime) on the bucket open; ' +
          'with startTime the first `limit` buckets from there, without it the latest `limit` before endTime (or ' +
          'the end); always ascending. Weeks open Monday 00:00 UTC. An interval a symbol has no data for is ' +
          '`[]`. No other parameter names are accepted. Answers over 8 kB are gzipped for clients that accept it.',
        parameters: queryParameters(candlesQuerySchema),
        responses: {
          200: withHeaders(
            ok('The candles', components.response('CandlesResult', candlesResponse), MARKET_EXAMPLES.candles),
            true,
          ),
          400: invalid(false),
          404: symbolNotFound('Unknown symbol'),
          ...common,
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/capabilities': {
      get: {
        operationId: 'getCapabilities',
        tags: [TAG],
        summary: 'Connectors, symbols, stored ranges, data types, limits and your rate-limit tier',
        description:
          'Generated from the connector table and what is stored: the same sources the query validates against.',
        responses: {
          200: withHeaders(ok('What can be asked', components.response('Capabilities', capabilitiesResponse)), true),
          ...common,
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/query': {
      post: {
        operationId: 'queryMarketData',
        tags: [TAG],
        summary: 'Unified query: candles or ticker of a connector',
        description:
          'Validated in order: connector, dataType, filters, limit (each failure a 400 naming the parameter); ' +
          'a symbol the connector does not offer is 404. `ticker` is the latest stored close of the finest ' +
          'interval with the 24 hours before it.',
        requestBody: jsonBody(components.request('MarketQuery', marketQueryBodySchema), MARKET_EXAMPLES.candlesQuery),
        responses: {
          200: withHeaders(
            ok(
              'Candles or tickers',
              components.response('MarketQueryResult', marketQueryResponse),
              MARKET_EXAMPLES.candlesQueryAnswer,
            ),
            true,
          ),
          400: invalid(true),
          404: symbolNotFound('A symbol the connector does not offer'),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
          ...common,
        },
        security: accountSecurity('read'),
      },
    },
  };
}
