import express from 'express';
import request from 'supertest';
import { createErrorHandler } from '../../src/platform/http/errors';
import { createCandlesRouter } from '../../src/market/routes/candles-route';
import { candlesQuerySchema, marketQueryBodySchema } from '../../src/market/routes/market-params-schema';
import { createQueryRouter } from '../../src/market/routes/query-route';
import type { MarketStore } from '../../src/market/store/market-candles';
import { createTieredLimiter } from '../../src/platform/rate-limit/limiter';
import { createLogger } from '../../src/platform/logging/logger';

/**
 * The market routes validate by hand; the OpenAPI document describes their inputs with zod schemas
 * beside them. These tests send the same inputs to the real routes (Express query parsing, JSON body
 * parsing, the validators, over a store that answers nothing) and to the schemas: a 400 from the
 * route must be exactly a refusal by the schema. 404 (a symbol there is no data for) is beyond the
 * schema: it counts as accepted.
 */

const catalogue = ['kraken', 'binance', 'binance-futures'].map((connector, i) => ({
  symbol: ['BTC-USD', 'BTC-USDT', 'ALGO-USDT'][i] as string,
  connector,
  exchangeSymbol: 'X',
  market: 'spot' as const,
  series: [],
}));
const store = {
  findSymbol: async () => null,
  catalogue: async () => catalogue,
  candles: async () => [],
  candlesJson: async () => ({ json: '[]', total: 0 }),
  ticker: async () => null,
} as unknown as MarketStore;
const app = express()
  .use(express.json())
  // Candles spend the caller's point and check its scope themselves: an authenticated user with every scope.
  .use((_req, res, next) => {
    res.locals.user = { id: 'user-1', clerkUserId: null, email: null, role: 'user', status: 'active' };
    next();
  })
  .use(
    createCandlesRouter({
      market: store,
      limiter: createTieredLimiter({ store: 'memory' }),
      principalOf: () => ({ key: 'account:user-1', tier: 'enterprise', requestsPerMinute: 1_000_000 }),
    }),
  )
  .use(createQueryRouter({ market: store }))
  .use(createErrorHandler(createLogger('silent')));

const accepted = (status: number) => {
  if (![200, 400, 404].includes(status)) throw new Error(`unexpected status ${status}`);
  return status !== 400;
};

/** A seeded generator, so a failure names inputs that can be replayed. */
function prng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}
const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

const SYMBOL_CHARS = [
  'B',
  'T',
  'C',
  'u',
  's',
  'd',
  '0',
  '9',
  'Z',
  'x',
  'B',
  'T',
  'C',
  'u',
  '_',
  ' ',
  'é',
  '\u0131',
  '\u017F',
  '-',
];
const SYMBOLS = [
  'BTC-USD',
  'btc-usd',
  'Eth-Usdt',
  '\u0131\u0131-\u017F\u017F',
  'AB-CD',
  'A-USD',
  'ABCDEFGHIJKL-USD',
  'ABCDEFGHIJKLM-USD',
  'BTC_USD',
  'BTCUSD',
  '',
  ' BTC-USD',
  'BTC-USD ',
  'BTC-USDé',
  '12-34',
  'BTC--USD',
];
/** Mostly BASE-QUOTE shaped, with a fair share of bad characters and lengths. */
const symbolFrom = (random: () => number): string => {
  if (random() < 0.4) return pick(random, SYMBOLS);
  const part = () => Array.from({ length: 1 + Math.floor(random() * 13) }, () => pick(random, SYMBOL_CHARS)).join('');
  return `${part()}-${part()}`;
};
const INTEGER_TEXTS = [
  '',
  '0',
  '1',
  '7',
  '100',
  '999',
  '1000',
  '1001',
  '01',
  '0001000',
  '1e3',
  '10.0',
  ' 5',
  '-1',
  '+5',
  '0x10',
  '9'.repeat(17),
  '1704067200000',
  '253402300799999',
  '253402300800000',
  '8640000000000000',
  '8640000000000001',
  'abc',
];
const INTERVALS = ['1m', '5m', '1h', '4h', '1d', '1w', '2d', '1H', '', '1M'];

/** OpenAPI's reading of a query value: an integer parameter whose text is an integer is that number. */
const asDocumentValue = (name: string, text: string) =>
  ['limit', 'startTime', 'endTime'].includes(name) && /^-?\d+$/.test(text) ? Number(text) : text;

describe('market parameter schemas against the hand-written validators', () => {
  test(
    'when 400 generated candle queries go to the route and to the schema, ' +
      'then the route refuses exactly those the schema refuses',
    async () => {
      const random = prng(7);
      const disagreements: string[] = [];
      for (let i = 0; i < 400; i++) {
        const query: Record<string, string> = {};
        if (random() < 0.95) query.symbol = random() < 0.5 ? 'BTC-USD' : symbolFrom(random);
        if (random() < 0.95) query.interval = random() < 0.6 ? '1h' : pick(random, INTERVALS);
        for (const name of ['limit', 'startTime', 'endTime'])
          if (random() < 0.5) query[name] = pick(random, INTEGER_TEXTS);
        if (random() < 0.05) query.start_time = '1';
        const res = await request(app).get('/market-data/candles').query(query);
        const schema = candlesQuerySchema.safeParse(
          Object.fromEntries(Object.entries(query).map(([k, t]) => [k, asDocumentValue(k, t)])),
        ).success;
        if (accepted(res.status) !== schema)
          disagreements.push(`${JSON.stringify(query)}: route ${res.status}, schema ${schema ? 'accepts' : 'refuses'}`);
      }
      expect(disagreements).toEqual([]);
    },
  );

  test(
    'when a parameter is repeated, then the route ' + 'refuses it, as a single-valued OpenAPI parameter does',
    async () => {
      const res = await request(app).get('/market-data/candles?symbol=BTC-USD&symbol=ETH-USD&interval=1h');
      expect(res.status).toBe(400);
      expect(res.body.error.details.parameter).toBe('symbol');
    },
  );

  test(
    'when a symbol holds a character that upper-cases to two letters, then the route takes it and the schema ' +
      'does not (the documented gap)',
    async () => {
      const res = await request(app).get('/market-data/candles').query({ symbol: 'ßß-USD', interval: '1h' });
      expect([
        accepted(res.status),
        candlesQuerySchema.safeParse({ symbol: 'ßß-USD', interval: '1h' }).success,
      ]).toEqual([true, false]);
    },
  );

  test(
    'when 400 generated query bodies go to POST /query and to the schema, ' +
      'then the route refuses exactly those the schema refuses',
    async () => {
      const random = prng(11);
      const values: unknown[] = [
        undefined,
        null,
        5,
        '5',
        '0',
        100,
        '100',
        101,
        1000,
        '1000',
        1001,
        '101',
        '0001',
        'x',
        true,
        [],
        {},
        12.5,
        1e20,
        -1,
        0,
        1704067200000,
        '1704067200000',
        253402300799999,
        '253402300800000',
        8640000000000000,
        '8640000000000000',
        8640000000000001,
        '8640000000000001',
        '1e3',
        ' 5',
      ];
      const disagreements: string[] = [];
      for (let i = 0; i < 400; i++) {
        const body: Record<string, unknown> = {};
        if (random() < 0.95)
          body.connector =
            random() < 0.8
              ? pick(random, ['kraken', 'binance', 'binance-futures'])
              : pick(random, ['Kraken', 'coinbase', 3]);
        if (random() < 0.95)
          body.dataType = random() < 0.9 ? pick(random, ['candles', 'ticker']) : pick(random, ['trades', null]);
        if (random() < 0.8) {
          const filters: Record<string, unknown> = {};
          if (random() < 0.8)
            filters.symbol =
              random() < 0.7
                ? pick(random, ['BTC-USD', 'btc-usdt', 'ALGO-USDT'])
                : random() < 0.5
                  ? symbolFrom(random)
                  : pick(random, [7, null, ['BTC-USD']]);
          if (random() < 0.7) filters.interval = random() < 0.7 ? '1d' : pick(random, INTERVALS);
          if (random() < 0.4) filters.startTime = pick(random, values);
          if (random() < 0.4) filters.endTime = pick(random, values);
          if (random() < 0.05) filters.other = 1;
          body.filters = random() < 0.05 ? pick(random, [null, [], 'x']) : filters;
        }
        if (random() < 0.6) body.limit = pick(random, values);
        if (random() < 0.03) body.extra = true;
        const sent = JSON.parse(JSON.stringify(body));
        const res = await request(app).post('/query').send(sent);
        const schema = marketQueryBodySchema.safeParse(sent).success;
        if (accepted(res.status) !== schema)
          disagreements.push(`${JSON.stringify(sent)}: route ${res.status}, schema ${schema ? 'accepts' : 'refuses'}`);
      }
      expect(disagreements).toEqual([]);
    },
  );

  test('when the body is not an object, then both refuse it', async () => {
    for (const body of [[1], '"text"', '3']) {
      const res = await request(app)
        .post('/query')
        .set('content-type', 'application/json')
        .send(typeof body === 'string' ? body : JSON.stringify(body));
      expect([
        res.status,
        marketQueryBodySchema.safeParse(JSON.parse(typeof body === 'string' ? body : JSON.stringify(body))).success,
      ]).toEqual([400, false]);
    }
  });
});
