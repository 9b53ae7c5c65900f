import { shippedCandles } from '../helpers/candle-oracle';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/** GET /capabilities and POST /query over the shipped data loaded at start. */
let stack: TestStack;
let key: string;
const auth = () => ({ authorization: `Bearer ${key}` });
const query = (body: unknown) => stack.http('POST', '/api/v1/query', { headers: auth(), body });

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  const user = await stack.createUser();
  key = user.key;
  await stack.pool.query(
    `UPDATE api_keys SET rate_limit_tier = 'enterprise', requests_per_minute = 100000 WHERE user_id = $1`,
    [user.id],
  );
}, 60_000);
afterAll(async () => stack?.stop());

describe('GET /api/v1/capabilities', () => {
  test('lists every stored symbol under its connector, with ' +
    'time ranges that match the candles actually served', async () => {
    const res = await stack.http('GET', '/api/v1/capabilities', { headers: auth() });
    expect(res.status).toBe(200);
    const { connectors } = res.body.data;
    expect(connectors.map((c: { id: string }) => c.id)).toEqual(['kraken', 'binance', 'binance-futures']);
    const listed = connectors
      .flatMap((c: { id: string; symbols: { symbol: string }[] }) => c.symbols.map((s) => `${c.id}:${s.symbol}`))
      .sort();
    const stored = (
      await stack.pool.query<{ k: string }>(`SELECT connector || ':' || symbol AS k FROM market_symbols`)
    ).rows
      .map((r) => r.k)
      .sort();
    expect(listed).toEqual(stored);
    expect(listed).toEqual(
      expect.arrayContaining([
        'kraken:BTC-USD',
        'kraken:ETH-USD',
        'kraken:SOL-USD',
        'kraken:AVAX-USD',
        'kraken:DOT-USD',
        'kraken:BTC-USDC',
        'binance:BTC-USDT',
        'binance-futures:ALGO-USDT',
      ]),
    );

    // For each shipped symbol and listed interval: the first and last candle served are the listed from/to, and
    // the count matches.
    for (const connector of connectors) {
      for (const s of connector.symbols.filter((x: { symbol: string }) => !x.symbol.startsWith('O'))) {
        for (const i of s.intervals) {
          const first = await stack.http(
            'GET',
            `/api/v1/market-data/candles?symbol=${s.symbol}&interval=${i.interval}&startTime=0&limit=1`,
            { headers: auth() },
          );
          const last = await stack.http(
            'GET',
            `/api/v1/market-data/candles?symbol=${s.symbol}&interval=${i.interval}&limit=1`,
            { headers: auth() },
          );
          expect([s.symbol, i.interval, first.body.data[0].timestamp, last.body.data[0].timestamp]).toEqual([
            s.symbol,
            i.interval,
            i.from,
            i.to,
          ]);
        }
        const counted = await stack.pool.query<{ interval: string; n: number }>(
          'SELECT interval, count(*)::int AS n FROM market_candles WHERE symbol = $1 GROUP BY interval',
          [s.symbol],
        );
        expect(
          Object.fromEntries(s.intervals.map((i: { interval: string; candles: number }) => [i.interval, i.candles])),
        ).toEqual(Object.fromEntries(counted.rows.map((r) => [r.interval, r.n])));
      }
    }
  }, 60_000);

  test('says which intervals the exchange published and which are rolled up, and what is not available', async () => {
    const res = await stack.http('GET', '/api/v1/capabilities', { headers: auth() });
    const btcUsd = res.body.data.connectors[0].symbols.find((s: { symbol: string }) => s.symbol === 'BTC-USD');
    const intervals = Object.fromEntries(
      btcUsd.intervals.map((i: { interval: string; native: boolean; from: string; to: string }) => [i.interval, i]),
    );
    // Kraken published 5m (2023-Q1), 15m (2023-01..09) and 1h (2013-10..2023-01-07); there is no 1m BTC-USD file.
    expect(Object.keys(intervals)).toEqual(['5m', '15m', '30m', '1h', '4h', '1d', '1w']);
    expect(intervals['5m']).toMatchObject({
      native: true,
      from: '2023-01-01T00:00:00.000Z',
      to: '2023-03-31T23:55:00.000Z',
      candles: 25901,
    });
    expect(intervals['1h']).toMatchObject({
      native: true,
      from: '2013-10-06T21:00:00.000Z',
      to: '2023-09-30T23:00:00.000Z',
    });
    expect(intervals['1w']).toMatchObject({ native: false, from: '2013-10-07T00:00:00.000Z' });
    // The symbol's span: the earliest bucket of any interval to the latest (the 15m file's last quarter).
    expect(btcUsd).toMatchObject({
      exchangeSymbol: 'XBTUSD',
      from: '2013-10-06T21:00:00.000Z',
      to: '2023-09-30T23:45:00.000Z',
    });
  });

  test('lists data types, intervals, limits and the caller’s own rate-limit tier', async () => {
    const res = await stack.http('GET', '/api/v1/capabilities', { headers: auth() });
    const d = res.body.data;
    expect(d.intervals).toEqual(['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w']);
    expect(d.dataTypes.map((t: { id: string }) => t.id)).toEqual(['candles', 'ticker']);
    expect(d.limits.candles).toEqual({ default: 100, max: 1000 });
    expect(d.rateLimit).toEqual({
      tier: 'enterprise',
      requestsPerMinute: 100000,
      windowSeconds: 60,
      tiers: { free: 60, pro: 300, enterprise: 'custom' },
    });
    const free = await stack.createUser();
    const asFree = await stack.http('GET', '/api/v1/capabilities', {
      headers: { authorization: `Bearer ${free.key}` },
    });
    expect(asFree.body.data.rateLimit).toMatchObject({ tier: 'free', requestsPerMinute: 60 });
  });

  test('requires an API key', async () => {
    expect((await stack.http('GET', '/api/v1/capabilities')).status).toBe(401);
  });
});

describe('POST /api/v1/query', () => {
  test('candles: the same answer as the candles route, in the query envelope', async () => {
    const viaQuery = await query({
      connector: 'binance-futures',
      dataType: 'candles',
      filters: { symbol: 'ALGO-USDT', interval: '4h', startTime: 1725148800000, endTime: 1725235200000 },
      limit: 5,
    });
    const viaRoute = await stack.http(
      'GET',
      '/api/v1/market-data/candles?symbol=ALGO-USDT&interval=4h&startTime=1725148800000&endTime=1725235200000&limit=5',
      { headers: auth() },
    );
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.body.data).toEqual(viaRoute.body.data);
    expect(viaQuery.body.data).toHaveLength(5);
    expect(viaQuery.body.meta).toEqual({
      connector: 'binance-futures',
      dataType: 'candles',
      symbol: 'ALGO-USDT',
      interval: '4h',
      total: 5,
    });
    // Times may come as JSON numbers or digit strings.
    const asStrings = await query({
      connector: 'binance-futures',
      dataType: 'candles',
      filters: { symbol: 'ALGO-USDT', interval: '4h', startTime: '1725148800000', endTime: '1725235200000' },
      limit: 5,
    });
    expect(asStrings.body.data).toEqual(viaRoute.body.data);
  });

  test('ticker: the latest stored close with the 24 hours before it', async () => {
    const res = await query({ connector: 'binance-futures', dataType: 'ticker', filters: { symbol: 'ALGO-USDT' } });
    expect(res.status).toBe(200);
    const minutes = shippedCandles('binance_futures_um/1m/ALGO-USDT.csv.gz', 'binance-kline', '1m');
    const last = minutes[minutes.length - 1];
    const day = minutes.filter((c) => c.openTime >= Date.parse('2024-09-30T00:00:00Z'));
    expect(day).toHaveLength(1440);
    const [t] = res.body.data;
    expect(t).toMatchObject({
      symbol: 'ALGO-USDT',
      connector: 'binance-futures',
      price: Number(last?.close),
      timestamp: '2024-10-01T00:00:00.000Z',
      interval: '1m',
      window24h: {
        open: Number(day[0]?.open),
        high: Math.max(...day.map((c) => Number(c.high))),
        low: Math.min(...day.map((c) => Number(c.low))),
        trades: day.reduce((n, c) => n + (c.trades ?? 0), 0),
      },
    });
    expect(t.window24h.changePercent).toBeCloseTo(
      ((Number(last?.close) - Number(day[0]?.open)) / Number(day[0]?.open)) * 100,
      3,
    );
    expect(res.body.meta).toEqual({ connector: 'binance-futures', dataType: 'ticker', total: 1 });
  });

  test('ticker without a symbol: every pair of the connector', async () => {
    const res = await query({ connector: 'kraken', dataType: 'ticker' });
    expect(res.status).toBe(200);
    const symbols = res.body.data.map((t: { symbol: string }) => t.symbol);
    expect(symbols).toEqual(
      expect.arrayContaining(['AVAX-USD', 'BTC-USD', 'BTC-USDC', 'DOT-USD', 'ETH-USD', 'SOL-USD']),
    );
    const btc = res.body.data.find((t: { symbol: string }) => t.symbol === 'BTC-USD');
    // BTC-USD's finest stored interval is Kraken's 5m (2023-Q1), so its latest price is that file's last close.
    const fives = shippedCandles('kraken/5m/BTC-USD.csv.gz', 'kraken-ohlcvt', '5m');
    expect(btc).toMatchObject({
      interval: '5m',
      price: Number(fives[fives.length - 1]?.close),
      timestamp: '2023-04-01T00:00:00.000Z',
    });
  });

  test.each([
    ['a body that is not an object', [1, 2], 'body'],
    ['no connector', { dataType: 'candles', filters: { symbol: 'BTC-USD', interval: '1h' } }, 'connector'],
    [
      'an unknown connector',
      { connector: 'coinbase', dataType: 'candles', filters: { symbol: 'BTC-USD', interval: '1h' } },
      'connector',
    ],
    ['no dataType', { connector: 'kraken', filters: { symbol: 'BTC-USD', interval: '1h' } }, 'dataType'],
    ['an unknown dataType', { connector: 'kraken', dataType: 'trades', filters: { symbol: 'BTC-USD' } }, 'dataType'],
    ['filters that are not an object', { connector: 'kraken', dataType: 'candles', filters: 'BTC-USD' }, 'filters'],
    [
      'candles without a symbol',
      { connector: 'kraken', dataType: 'candles', filters: { interval: '1h' } },
      'filters.symbol',
    ],
    [
      'candles with a bad interval',
      { connector: 'kraken', dataType: 'candles', filters: { symbol: 'BTC-USD', interval: '2h' } },
      'filters.interval',
    ],
    [
      'candles with a bad startTime',
      { connector: 'kraken', dataType: 'candles', filters: { symbol: 'BTC-USD', interval: '1h', startTime: 1.5 } },
      'filters.startTime',
    ],
    [
      'candles with endTime before startTime',
      {
        connector: 'kraken',
        dataType: 'candles',
        filters: { symbol: 'BTC-USD', interval: '1h', startTime: 10, endTime: 5 },
      },
      'filters.endTime',
    ],
    [
      'an unknown filter',
      { connector: 'kraken', dataType: 'candles', filters: { symbol: 'BTC-USD', interval: '1h', exchange: 'kraken' } },
      'filters.exchange',
    ],
    [
      'an unknown ticker filter',
      { connector: 'kraken', dataType: 'ticker', filters: { interval: '1h' } },
      'filters.interval',
    ],
    [
      'candles with limit 1001',
      { connector: 'kraken', dataType: 'candles', filters: { symbol: 'BTC-USD', interval: '1h' }, limit: 1001 },
      'limit',
    ],
    ['ticker with limit 101', { connector: 'kraken', dataType: 'ticker', limit: 101 }, 'limit'],
    [
      'a limit that is a string of words',
      { connector: 'kraken', dataType: 'candles', filters: { symbol: 'BTC-USD', interval: '1h' }, limit: 'ten' },
      'limit',
    ],
    [
      'an unknown top-level field',
      { connector: 'kraken', dataType: 'candles', filters: { symbol: 'BTC-USD', interval: '1h' }, offset: 10 },
      'offset',
    ],
  ])('400 for %s, naming the parameter', async (_name, body, parameter) => {
    const res = await query(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
    expect(typeof res.body.error.details.expected).toBe('string');
  });

  test('the 400 for an unknown connector lists the connectors capabilities lists', async () => {
    const res = await query({ connector: 'coinbase', dataType: 'candles' });
    expect(res.body.error.details.expected).toBe('one of kraken, binance, binance-futures');
  });

  test('invalid JSON is a 400 in the same shape', async () => {
    const res = await stack.http('POST', '/api/v1/query', {
      headers: { ...auth(), 'content-type': 'application/json' },
      body: '{"connector": ',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter: 'body' } });
  });

  test('404 for a symbol the connector does not offer (even one another connector has)', async () => {
    const elsewhere = await query({
      connector: 'kraken',
      dataType: 'candles',
      filters: { symbol: 'BTC-USDT', interval: '1h' },
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error).toMatchObject({ code: 'SYMBOL_NOT_FOUND', details: { parameter: 'filters.symbol' } });
    expect(elsewhere.body.error.details.expected).toContain('BTC-USD');
    const nowhere = await query({ connector: 'binance', dataType: 'ticker', filters: { symbol: 'DOGE-USDT' } });
    expect(nowhere.status).toBe(404);
  });
});
