import type { CandleView } from '../../src/market/domain/candle';
import { ingestCandles } from '../../src/market/store/market-ingest';
import { inTransaction } from '../../src/platform/db/transaction';
import type { CandleFileFormat } from '../../src/market/domain/candle-files';
import { CANDLE_INTERVALS, INTERVAL_MS, type CandleInterval } from '../../src/market/domain/intervals';
import { aggregate, plain, sameCandle, shippedCandles, type PlainCandle } from '../helpers/candle-oracle';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * Candles through the real API over the shipped data loaded at start. The oracle for rolled-up
 * intervals is the exchange itself: its finer files re-aggregate exactly to its own coarser files.
 */
let stack: TestStack;
let key: string;

const ms = (iso: string) => Date.parse(iso);
const fromView = (c: CandleView): PlainCandle => ({
  t: Date.parse(c.timestamp),
  open: c.open,
  high: c.high,
  low: c.low,
  close: c.close,
  volume: c.volume,
  trades: c.trades,
});

async function candles(
  query: Record<string, string | number>,
): Promise<{ status: number; body: any; headers: Headers }> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return stack.http('GET', `/api/v1/market-data/candles?${qs}`, { headers: { authorization: `Bearer ${key}` } });
}

/** Every candle in [start, end), paging through the API 1000 at a time. */
async function allCandles(
  symbol: string,
  interval: CandleInterval,
  start: number,
  end: number,
): Promise<PlainCandle[]> {
  const out: PlainCandle[] = [];
  for (let from = start; from < end; ) {
    const res = await candles({ symbol, interval, startTime: from, endTime: end, limit: 1000 });
    expect(res.status).toBe(200);
    const page = (res.body.data as CandleView[]).map(fromView);
    out.push(...page);
    if (page.length < 1000) break;
    from = (page[page.length - 1] as PlainCandle).t + 1;
  }
  return out;
}

/** Loads one shipped file under a symbol of its own, so its rollups are built from it alone. */
async function ingestAlone(
  symbol: string,
  path: string,
  format: CandleFileFormat,
  interval: CandleInterval,
): Promise<void> {
  const rows = shippedCandles(path, format, interval);
  await inTransaction(stack.pool, (client) =>
    ingestCandles(
      client,
      { symbol, connector: 'kraken', exchangeSymbol: `TEST-${symbol}`, market: 'spot' },
      { interval, candles: rows },
      { refresh: true },
    ),
  );
}

function expectSameSeries(actual: PlainCandle[], expected: PlainCandle[], volumeTolerance: number): void {
  expect(actual.length).toBe(expected.length);
  const mismatches = actual.filter((a, i) => !sameCandle(a, expected[i] as PlainCandle, volumeTolerance));
  expect(mismatches.slice(0, 3)).toEqual([]);
}

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  const user = await stack.createUser();
  key = user.key;
  // This file makes hundreds of requests; the limits themselves are tested in market-rate-limits.
  await stack.pool.query(
    `UPDATE api_keys SET rate_limit_tier = 'enterprise', requests_per_minute = 1000000 WHERE user_id = $1`,
    [user.id],
  );
}, 60_000);
afterAll(async () => stack?.stop());

describe('rolled-up intervals equal the exchange’s own coarser files', () => {
  // [symbol to load the finer file under, finer file, format, its interval, the exchange's coarser file, its
  // interval, window, buckets]
  test.each([
    [
      'OETH5-USD',
      'kraken/5m/ETH-USD.csv.gz',
      'kraken-ohlcvt',
      '5m',
      'kraken/15m/ETH-USD.csv.gz',
      '15m',
      '2023-07-01T00:00:00Z',
      '2023-10-01T00:00:00Z',
      8826,
    ],
    [
      'OBTC5-USD',
      'kraken/5m/BTC-USD.csv.gz',
      'kraken-ohlcvt',
      '5m',
      'kraken/15m/BTC-USD.csv.gz',
      '15m',
      '2023-01-01T00:00:00Z',
      '2023-04-01T00:00:00Z',
      8635,
    ],
    // 15m → 30m → 1h: two rollup steps.
    [
      'OETH15-USD',
      'kraken/15m/ETH-USD.csv.gz',
      'kraken-ohlcvt',
      '15m',
      'kraken/1h/ETH-USD.csv.gz',
      '1h',
      '2023-01-01T00:00:00Z',
      '2023-04-01T00:00:00Z',
      2160,
    ],
    // The 1m file stops at 2024-12-29T23:00, the first minute of Binance's last 15m bucket: only partly known, so left
    // out (2,785 − 1).
    [
      'OBTC1-USDT',
      'binance/1m/BTC-USDT.csv.gz',
      'binance-export',
      '1m',
      'binance/15m/BTC-USDT.csv.gz',
      '15m',
      '2024-11-30T23:00:00Z',
      '2024-12-29T23:00:00Z',
      2784,
    ],
  ] as const)(
    '%s: %s (%s, %s) re-aggregates to the exchange’s %s',
    async (symbol, finer, format, finerInterval, coarser, interval, from, to, buckets) => {
      await ingestAlone(symbol, finer, format, finerInterval);
      const [start, end] = [ms(from), ms(to)];
      const exchange = shippedCandles(coarser, format, interval)
        .map(plain)
        .filter((c) => c.t >= start && c.t < end);
      const ours = await allCandles(symbol, interval, start, end);
      expect(ours.length).toBe(buckets);
      expectSameSeries(ours, exchange, 1e-6);
    },
  );

  test(
    'Kraken BTC-USD: the dump’s partial last hour is dropped and ' +
      'rebuilt from the 15m file ' +
      '(525 trades, not 106)',
    async () => {
      const res = await candles({
        symbol: 'BTC-USD',
        interval: '1h',
        startTime: ms('2023-01-07T08:00:00Z'),
        endTime: ms('2023-01-07T10:00:00Z'),
      });
      expect(res.status).toBe(200);
      const [eight, nine] = res.body.data as CandleView[];
      expect(eight).toEqual({
        timestamp: '2023-01-07T08:00:00.000Z',
        open: 16943.7,
        high: 16948.5,
        low: 16931.1,
        close: 16935.3,
        volume: 48.06700932,
        trades: 798,
      });
      const quarter = shippedCandles('kraken/15m/BTC-USD.csv.gz', 'kraken-ohlcvt', '15m')
        .map(plain)
        .filter((c) => c.t >= ms('2023-01-07T09:00:00Z') && c.t < ms('2023-01-07T10:00:00Z'));
      expect(quarter.length).toBe(4);
      expect(nine?.trades).toBe(525);
      expect(nine?.open).toBe(quarter[0]?.open);
      expect(nine?.close).toBe(quarter[3]?.close);
    },
  );

  test('Kraken BTC-USD 15m re-aggregates to the 1h file for its 153 complete hours of 2023-01-01..07', async () => {
    const start = ms('2023-01-01T00:00:00Z');
    const end = ms('2023-01-07T09:00:00Z');
    const exchange = shippedCandles('kraken/1h/BTC-USD.csv.gz', 'kraken-ohlcvt', '1h')
      .map(plain)
      .filter((c) => c.t >= start && c.t < end);
    const fromFifteen = aggregate(
      shippedCandles('kraken/15m/BTC-USD.csv.gz', 'kraken-ohlcvt', '15m').map(plain),
      '1h',
      start,
      end,
    );
    expect(exchange.length).toBe(153);
    expectSameSeries(fromFifteen, exchange, 1e-6);
    // …and the API serves exactly those (native) hours.
    expectSameSeries(await allCandles('BTC-USD', '1h', start, end), exchange, 0);
  });
});

describe('every interval against an independent re-aggregation of the finest file', () => {
  const algo = () => shippedCandles('binance_futures_um/1m/ALGO-USDT.csv.gz', 'binance-kline', '1m').map(plain);
  const known = { start: ms('2024-09-01T00:00:00Z'), end: ms('2024-10-01T00:00:00Z') };

  test.each(CANDLE_INTERVALS)('ALGO-USDT %s', async (interval) => {
    const expected = aggregate(algo(), interval, known.start, known.end);
    const ours = await allCandles('ALGO-USDT', interval, ms('2024-08-01T00:00:00Z'), ms('2024-11-01T00:00:00Z'));
    expectSameSeries(ours, expected, 1e-9);
    expect(ours.length).toBe(
      { '1m': 43200, '5m': 8640, '15m': 2880, '30m': 1440, '1h': 720, '4h': 180, '1d': 30, '1w': 4 }[interval],
    );
  });

  test('a hand-checked week: ALGO-USDT 2024-09-02 (zcat | awk over its 10,080 minutes)', async () => {
    const res = await candles({ symbol: 'ALGO-USDT', interval: '1w', startTime: ms('2024-09-02T00:00:00Z'), limit: 1 });
    expect(res.body.data[0]).toMatchObject({
      timestamp: '2024-09-02T00:00:00.000Z',
      open: 0.1183,
      high: 0.1269,
      low: 0.1114,
      close: 0.125,
      trades: 435171,
    });
  });
});

describe('weeks open on Monday 00:00 UTC', () => {
  test('every weekly candle of every symbol opens on a Monday at 00:00 UTC', async () => {
    const { rows } = await stack.pool.query<{ symbol: string }>('SELECT symbol FROM market_symbols');
    let weeks = 0;
    for (const { symbol } of rows) {
      for (const c of await allCandles(symbol, '1w', 0, ms('2100-01-01T00:00:00Z'))) {
        const d = new Date(c.t);
        expect([d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes()]).toEqual([1, 0, 0]);
        weeks++;
      }
    }
    expect(weeks).toBeGreaterThan(500);
  });

  test(
    'a week is its seven days Monday..Sunday (BTC-USD, week of 2023-01-02), ' +
      'and partial weeks at the data’s edges are not built',
    async () => {
      const days = await allCandles('BTC-USD', '1d', ms('2023-01-02T00:00:00Z'), ms('2023-01-09T00:00:00Z'));
      expect(days.length).toBe(7);
      const [week] = await allCandles('BTC-USD', '1w', ms('2023-01-02T00:00:00Z'), ms('2023-01-09T00:00:00Z'));
      expect(week).toMatchObject({
        t: ms('2023-01-02T00:00:00Z'),
        open: days[0]?.open,
        close: days[6]?.close,
        high: Math.max(...days.map((d) => d.high)),
        low: Math.min(...days.map((d) => d.low)),
      });
      // ALGO-USDT's month starts on Sunday 2024-09-01: the week of Monday 2024-08-26 is only partly known.
      const algoWeeks = await allCandles('ALGO-USDT', '1w', 0, ms('2100-01-01T00:00:00Z'));
      expect(algoWeeks.map((w) => new Date(w.t).toISOString().slice(0, 10))).toEqual([
        '2024-09-02',
        '2024-09-09',
        '2024-09-16',
        '2024-09-23',
      ]);
    },
  );
});

describe('windows are half-open on the bucket open: [startTime, endTime)', () => {
  const at = (iso: string) => ms(iso);
  const times = (res: { body: any }) => (res.body.data as CandleView[]).map((c) => c.timestamp.slice(11, 16));

  test('startTime on a bucket open includes it; endTime on a bucket open excludes it', async () => {
    const res = await candles({
      symbol: 'ALGO-USDT',
      interval: '1h',
      startTime: at('2024-09-10T00:00:00Z'),
      endTime: at('2024-09-10T03:00:00Z'),
    });
    expect(times(res)).toEqual(['00:00', '01:00', '02:00']);
    expect(res.body.meta).toEqual({ symbol: 'ALGO-USDT', interval: '1h', total: 3 });
  });

  test('one millisecond either side moves the edge by a whole bucket', async () => {
    expect(
      times(
        await candles({
          symbol: 'ALGO-USDT',
          interval: '1h',
          startTime: at('2024-09-10T00:00:00Z') + 1,
          endTime: at('2024-09-10T03:00:00Z'),
        }),
      ),
    ).toEqual(['01:00', '02:00']);
    expect(
      times(
        await candles({
          symbol: 'ALGO-USDT',
          interval: '1h',
          startTime: at('2024-09-10T00:00:00Z'),
          endTime: at('2024-09-10T03:00:00Z') + 1,
        }),
      ),
    ).toEqual(['00:00', '01:00', '02:00', '03:00']);
    expect(
      times(
        await candles({
          symbol: 'ALGO-USDT',
          interval: '1h',
          startTime: at('2024-09-10T00:00:00Z') - 1,
          endTime: at('2024-09-10T01:00:00Z'),
        }),
      ),
    ).toEqual(['00:00']);
  });

  test('only endTime: the latest `limit` buckets before it, ascending', async () => {
    expect(
      times(await candles({ symbol: 'ALGO-USDT', interval: '1h', endTime: at('2024-09-10T03:00:00Z'), limit: 2 })),
    ).toEqual(['01:00', '02:00']);
  });

  test('neither: the latest `limit` buckets, ascending', async () => {
    const res = await candles({ symbol: 'ALGO-USDT', interval: '1m', limit: 3 });
    expect(res.body.data.map((c: CandleView) => c.timestamp)).toEqual([
      '2024-09-30T23:57:00.000Z',
      '2024-09-30T23:58:00.000Z',
      '2024-09-30T23:59:00.000Z',
    ]);
  });

  test('a window with no candles is an empty list, not an error', async () => {
    const res = await candles({ symbol: 'ALGO-USDT', interval: '1h', startTime: at('2030-01-01T00:00:00Z') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], meta: { symbol: 'ALGO-USDT', interval: '1h', total: 0 } });
  });
});

describe('limits', () => {
  test('default 100, at most 1000 per request', async () => {
    expect((await candles({ symbol: 'ALGO-USDT', interval: '1m' })).body.data).toHaveLength(100);
    const full = await candles({ symbol: 'ALGO-USDT', interval: '1m', limit: 1000, startTime: 0 });
    expect(full.body.data).toHaveLength(1000);
    expect(full.body.meta.total).toBe(1000);
    expect(full.body.data[0].timestamp).toBe('2024-09-01T00:00:00.000Z');
    expect(full.body.data[999].timestamp).toBe('2024-09-01T16:39:00.000Z');
    // Fewer stored than asked: all of them.
    expect((await candles({ symbol: 'ALGO-USDT', interval: '1d', limit: 1000 })).body.data).toHaveLength(30);
  });
});

describe('compression', () => {
  test(
    'a large answer is gzipped for a client that accepts it, identical once inflated; ' +
      'small answers and identity clients get plain JSON',
    async () => {
      const path = '/api/v1/market-data/candles?symbol=ALGO-USDT&interval=1m&limit=1000&startTime=0';
      const gz = await stack.http('GET', path, {
        headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' },
      });
      const plainAnswer = await stack.http('GET', path, {
        headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' },
      });
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(gz.headers.get('vary')).toContain('Accept-Encoding');
      expect(plainAnswer.headers.get('content-encoding')).toBeNull();
      expect(gz.body).toEqual(plainAnswer.body);
      expect(gz.body.data).toHaveLength(1000);
      const small = await stack.http('GET', '/api/v1/market-data/candles?symbol=ALGO-USDT&interval=1m&limit=2', {
        headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' },
      });
      expect(small.headers.get('content-encoding')).toBeNull();
    },
  );
});

describe('gaps stay gaps', () => {
  test(
    'Kraken’s outage of 2023-02-22 00:15–01:30: no invented 15m candles, ' +
      'and the 01:00 hour built from the two quarters there are',
    async () => {
      const quarters = await candles({
        symbol: 'BTC-USD',
        interval: '15m',
        startTime: ms('2023-02-22T00:00:00Z'),
        endTime: ms('2023-02-22T02:00:00Z'),
      });
      expect(times(quarters)).toEqual(['00:00', '01:30', '01:45']);
      const hours = await candles({
        symbol: 'BTC-USD',
        interval: '1h',
        startTime: ms('2023-02-22T00:00:00Z'),
        endTime: ms('2023-02-22T02:00:00Z'),
      });
      expect(hours.body.data).toEqual([
        {
          timestamp: '2023-02-22T00:00:00.000Z',
          open: 24442,
          high: 24442.7,
          low: 24442,
          close: 24442.7,
          volume: 7.92878897,
          trades: 75,
        },
        {
          timestamp: '2023-02-22T01:00:00.000Z',
          open: 24442.5,
          high: 24442.5,
          low: 24120.1,
          close: 24172.8,
          volume: 271.41139946,
          trades: 1221,
        },
      ]);
    },
  );

  test('a sparse 1m pair (Kraken BTC-USDC) serves exactly the minutes that traded', async () => {
    const start = ms('2023-02-01T00:00:00Z');
    const end = ms('2023-02-02T00:00:00Z');
    const traded = shippedCandles('kraken/1m/BTC-USDC.csv.gz', 'kraken-ohlcvt', '1m').filter(
      (c) => c.openTime >= start && c.openTime < end,
    );
    expect(traded.length).toBeLessThan(1440);
    const ours = await allCandles('BTC-USDC', '1m', start, end);
    expect(ours.map((c) => c.t)).toEqual(traded.map((c) => c.openTime));
  });

  const times = (res: { body: any }) => (res.body.data as CandleView[]).map((c) => c.timestamp.slice(11, 16));
});

describe('every invalid parameter is a 400 INVALID_PARAMETER naming it; an unknown symbol a 404', () => {
  const base = { symbol: 'ALGO-USDT', interval: '1h' };
  test.each([
    ['symbol missing', { interval: '1h' }, 'symbol'],
    ['symbol without a dash', { ...base, symbol: 'BTCUSD' }, 'symbol'],
    ['symbol with a slash', { ...base, symbol: 'BTC/USD' }, 'symbol'],
    ['interval missing', { symbol: 'ALGO-USDT' }, 'interval'],
    ['interval 2h', { ...base, interval: '2h' }, 'interval'],
    ['interval 1M', { ...base, interval: '1M' }, 'interval'],
    ['interval 1H (case matters: 1M would be a month)', { ...base, interval: '1H' }, 'interval'],
    ['limit 0', { ...base, limit: '0' }, 'limit'],
    ['limit 1001', { ...base, limit: '1001' }, 'limit'],
    ['limit abc', { ...base, limit: 'abc' }, 'limit'],
    ['limit 10.5', { ...base, limit: '10.5' }, 'limit'],
    ['limit -5', { ...base, limit: '-5' }, 'limit'],
    ['startTime not a number', { ...base, startTime: 'yesterday' }, 'startTime'],
    ['startTime in seconds with a fraction', { ...base, startTime: '1725148800.5' }, 'startTime'],
    ['startTime negative', { ...base, startTime: '-1' }, 'startTime'],
    ['startTime in exponent form', { ...base, startTime: '1e12' }, 'startTime'],
    ['startTime past year 275760', { ...base, startTime: '9999999999999999' }, 'startTime'],
    ['endTime as an ISO date', { ...base, endTime: '2024-09-10T00:00:00Z' }, 'endTime'],
    ['endTime equal to startTime', { ...base, startTime: '1725926400000', endTime: '1725926400000' }, 'endTime'],
    ['endTime before startTime', { ...base, startTime: '1725926400000', endTime: '1725922800000' }, 'endTime'],
    ['an unknown parameter (start_time)', { ...base, start_time: '1725926400000' }, 'start_time'],
  ])('%s', async (_name, query, parameter) => {
    const res = await candles(query as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
    expect(typeof res.body.error.message).toBe('string');
    expect(typeof res.body.error.details.expected).toBe('string');
  });

  test('a parameter given twice', async () => {
    const res = await stack.http('GET', '/api/v1/market-data/candles?symbol=ALGO-USDT&symbol=BTC-USD&interval=1h', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'INVALID_PARAMETER',
      details: { parameter: 'symbol', expected: 'a single value' },
    });
  });

  test('an unknown symbol is 404 in the same shape, listing the symbols there are', async () => {
    const res = await candles({ symbol: 'DOGE-USD', interval: '1h' });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'SYMBOL_NOT_FOUND', details: { parameter: 'symbol' } });
    expect(res.body.error.details.expected).toContain('BTC-USD');
    expect(res.body.error.details.expected).toContain('ALGO-USDT');
  });

  test('a known symbol in lower case is served under its canonical name', async () => {
    const res = await candles({ symbol: 'algo-usdt', interval: '1d', limit: 1 });
    expect(res.status).toBe(200);
    expect(res.body.meta.symbol).toBe('ALGO-USDT');
  });

  test('an interval a symbol has no candles for answers an empty list (capabilities lists what exists)', async () => {
    const res = await candles({ symbol: 'BTC-USD', interval: '1m' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe('authentication', () => {
  test('no key: 401; Bearer and x-api-key both work; an unknown key: 401', async () => {
    const path = '/api/v1/market-data/candles?symbol=ALGO-USDT&interval=1d&limit=1';
    expect((await stack.http('GET', path)).status).toBe(401);
    expect((await stack.http('GET', path)).body).toEqual({ success: false, error: 'Authentication required' });
    expect((await stack.http('GET', path, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    expect((await stack.http('GET', path, { key })).status).toBe(200);
    expect(
      (await stack.http('GET', path, { headers: { authorization: 'Bearer csk_live_not_a_real_key_000000000000' } }))
        .status,
    ).toBe(401);
  });
});

test(
  'a 1000-candle answer of any interval is one bounded index range scan (no sequential scan, ' +
    'no aggregation per request)',
  async () => {
    for (const interval of ['1m', '1h', '1w'] as const) {
      const { rows } = await stack.pool.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT ts FROM market_candles WHERE symbol = 'BTC-USD' AND interval = $1 AND ts >= '-infinity' ` +
          `AND ts < 'infinity' ORDER BY ts DESC LIMIT 1000`,
        [interval],
      );
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Index (Only )?Scan/);
      expect(plan).not.toMatch(/Seq Scan|Aggregate|Sort/);
    }
    expect(INTERVAL_MS['1w']).toBe(7 * 24 * 3600 * 1000);
  },
);
