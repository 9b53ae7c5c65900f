import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBinanceKlineSource } from '../../src/market/domain/live/binance-klines';
import { createKrakenOhlcSource } from '../../src/market/domain/live/kraken-ohlc';
import { LiveSourceError } from '../../src/market/domain/live/live-source';
import { startReplayServer, type Cassette, type ReplayServer } from '../helpers/replay-server';

/**
 * Live connectors against the strict replay server, answering with real recorded exchange responses
 * (test/fixtures/market-live/SOURCES.md says where each one comes from).
 */

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, '../fixtures/market-live', name), 'utf8'));

const HOUR = 3_600_000;
const DAY = 86_400_000;
// Fast backoff for tests; Retry-After is still honoured as sent.
const retry = { baseDelayMs: 20, maxDelayMs: 100 };

async function rejection(p: Promise<unknown>): Promise<LiveSourceError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(LiveSourceError);
    return err as LiveSourceError;
  }
  throw new Error('expected a rejection');
}

let server: ReplayServer | undefined;
async function replay(cassettes: Cassette[]): Promise<ReplayServer> {
  server = await startReplayServer(cassettes);
  return server;
}
afterEach(async () => {
  expect(server?.misses ?? []).toEqual([]);
  await server?.close();
  server = undefined;
});

describe('Binance spot klines (GET /api/v3/klines)', () => {
  // ccxt's recorded answer to BTC/USDT 1h from 1706628191000 (2024-01-30T15:23:11.000Z).
  const ccxtRows = fixture('binance-klines-BTCUSDT-1h-ccxt-static.json') as [
    number,
    string,
    string,
    string,
    string,
    string,
    number,
    string,
    number,
  ][];
  const since = 1706628191000;
  const request = {
    method: 'GET' as const,
    path: '/api/v3/klines',
    query: { symbol: 'BTCUSDT', interval: '1h', startTime: String(since), limit: '1000' },
  };
  const servedKey = `GET /api/v3/klines?interval=1h&limit=1000&startTime=${since}&symbol=BTCUSDT`;
  const source = (url: string, timeoutMs?: number) =>
    createBinanceKlineSource({ baseUrl: `${url}/`, timeoutMs, retry });

  test('when the last bucket is still open at now, then it is dropped and the closed rows map exactly', async () => {
    const s = await replay([{ request, response: { body: ccxtRows } }]);
    const now = 1706637600000 + 30 * 60_000; // inside the third bucket (16:00–17:00 … 18:00–19:00 UTC)
    const { candles, known } = await source(s.url).fetchClosed({
      exchangeSymbol: 'BTCUSDT',
      interval: '1h',
      since,
      now,
    });

    expect(s.served).toEqual([servedKey]);
    // Binance answers from the first bucket opening at or after startTime: 16:00 UTC, not 15:00.
    expect(candles).toEqual([
      {
        openTime: 1706630400000,
        open: '43519.34000000',
        high: '43936.00000000',
        low: '43171.00000000',
        close: '43488.71000000',
        volume: '20.55495000',
        trades: 3743,
      },
      {
        openTime: 1706634000000,
        open: '43488.71000000',
        high: '43832.08000000',
        low: '43084.00000000',
        close: '43374.80000000',
        volume: '21.80865000',
        trades: 4365,
      },
    ]);
    candles.forEach((c, i) => {
      const row = ccxtRows[i]!;
      expect([c.openTime, c.open, c.high, c.low, c.close, c.volume, c.trades]).toEqual([
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        row[5],
        row[8],
      ]);
    });
    expect(known).toEqual({ start: 1706630400000, end: 1706637600000 });
  });

  test('when now reaches the close of the last bucket, then it is returned; one ms earlier it is not', async () => {
    const s = await replay([{ request, response: { body: ccxtRows } }]);
    const closedAt = 1706641200000;
    const atClose = await source(s.url).fetchClosed({
      exchangeSymbol: 'BTCUSDT',
      interval: '1h',
      since,
      now: closedAt,
    });
    expect(atClose.candles.map((c) => c.openTime)).toEqual([1706630400000, 1706634000000, 1706637600000]);
    expect(atClose.candles[2]).toEqual({
      openTime: 1706637600000,
      open: '43374.81000000',
      high: '44048.00000000',
      low: '43062.00000000',
      close: '43361.11000000',
      volume: '23.66547000',
      trades: 4063,
    });
    expect(atClose.known).toEqual({ start: 1706630400000, end: closedAt });

    const justBefore = await source(s.url).fetchClosed({
      exchangeSymbol: 'BTCUSDT',
      interval: '1h',
      since,
      now: closedAt - 1,
    });
    expect(justBefore.candles).toHaveLength(2);
    expect(justBefore.known).toEqual({ start: 1706630400000, end: 1706637600000 });
    expect(s.served).toEqual([servedKey, servedKey]);
  });

  test(
    'when the only row is the day in progress (recorded at 2021-12-17 13:24:50 UTC), ' +
      'then nothing is returned and known is null',
    async () => {
      const dayOpen = 1639699200000; // 2021-12-17T00:00Z
      const s = await replay([
        {
          request: {
            method: 'GET',
            path: '/api/v3/klines',
            query: { symbol: 'ETHUSDT', interval: '1d', startTime: String(dayOpen), limit: '1000' },
          },
          response: { body: fixture('binance-klines-ETHUSDT-1d-binancer-vcr.json') },
        },
      ]);
      const recordedAt = Date.parse('2021-12-17T13:24:50Z');
      const result = await source(s.url).fetchClosed({
        exchangeSymbol: 'ETHUSDT',
        interval: '1d',
        since: dayOpen,
        now: recordedAt,
      });
      expect(result).toEqual({ candles: [], known: null });

      // The same row once the day has closed.
      const later = await source(s.url).fetchClosed({
        exchangeSymbol: 'ETHUSDT',
        interval: '1d',
        since: dayOpen,
        now: dayOpen + DAY,
      });
      expect(later.candles).toEqual([
        {
          openTime: dayOpen,
          open: '3959.11000000',
          high: '3994.10000000',
          low: '3796.00000000',
          close: '3820.87000000',
          volume: '210422.85360000',
          trades: 470771,
        },
      ]);
      expect(later.known).toEqual({ start: dayOpen, end: dayOpen + DAY });
      expect(s.served).toHaveLength(2);
    },
  );

  test(
    'when the first answer is 429 with Retry-After: 1, then ' + 'the call waits about a second, retries and succeeds',
    async () => {
      const s = await replay([
        {
          request,
          response: {
            status: 429,
            body: { code: -1003, msg: 'Too much request weight used.' },
            headers: { 'retry-after': '1' },
          },
          times: 1,
        },
        { request, response: { body: ccxtRows } },
      ]);
      const started = Date.now();
      const { candles } = await source(s.url).fetchClosed({
        exchangeSymbol: 'BTCUSDT',
        interval: '1h',
        since,
        now: 1706641200000,
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(candles).toHaveLength(3);
      expect(s.served).toEqual([servedKey, servedKey]);
    },
  );

  test(
    'when Retry-After is longer than the 10 s cap, then ' + 'the call is not retried early and reports the wait',
    async () => {
      const s = await replay([{ request, response: { status: 429, body: {}, headers: { 'retry-after': '120' } } }]);
      const err = await rejection(
        source(s.url).fetchClosed({ exchangeSymbol: 'BTCUSDT', interval: '1h', since, now: 1706641200000 }),
      );
      expect(err).toMatchObject({ retryable: true, status: 429, retryAfterMs: 120_000 });
      expect(s.served).toEqual([servedKey]);
    },
  );

  test('when the server answers 503 twice, then the third attempt returns the data', async () => {
    const s = await replay([
      { request, response: { status: 503, body: { msg: 'Service Unavailable.' } }, times: 2 },
      { request, response: { body: ccxtRows } },
    ]);
    const { candles } = await source(s.url).fetchClosed({
      exchangeSymbol: 'BTCUSDT',
      interval: '1h',
      since,
      now: 1706641200000,
    });
    expect(candles.map((c) => c.close)).toEqual(['43488.71000000', '43374.80000000', '43361.11000000']);
    expect(s.served).toEqual([servedKey, servedKey, servedKey]);
  });

  test(
    'when the symbol is unknown (400 -1121), then ' + "LiveSourceError, not retryable, with Binance's message",
    async () => {
      const s = await replay([
        {
          request: {
            method: 'GET',
            path: '/api/v3/klines',
            query: { symbol: 'NOPEUSDT', interval: '1m', startTime: String(since), limit: '1000' },
          },
          response: { status: 400, body: fixture('binance-error-invalid-symbol.json') },
        },
      ]);
      const err = await rejection(
        source(s.url).fetchClosed({ exchangeSymbol: 'NOPEUSDT', interval: '1m', since, now: 1706641200000 }),
      );
      expect(err.retryable).toBe(false);
      expect(err.message).toContain('Invalid symbol.');
      expect(err).toMatchObject({ status: 400, exchangeCode: -1121 });
      expect(s.served).toHaveLength(1);
    },
  );

  test(
    'when the server hangs, then each attempt times out ' + 'and the call ends with a retryable LiveSourceError',
    async () => {
      const s = await replay([{ request, response: { body: ccxtRows }, hang: true }]);
      const started = Date.now();
      const err = await rejection(
        createBinanceKlineSource({
          baseUrl: s.url,
          timeoutMs: 150,
          retry: { maxRetries: 1, baseDelayMs: 10 },
        }).fetchClosed({ exchangeSymbol: 'BTCUSDT', interval: '1h', since, now: 1706641200000 }),
      );
      expect(err.retryable).toBe(true);
      expect(err.message).toMatch(/no answer within 150 ms/);
      expect(err.message).toMatch(/gave up after 2 attempts/);
      expect(s.served).toEqual([servedKey, servedKey]);
      expect(Date.now() - started).toBeLessThan(2000);
    },
  );

  test('when the caller aborts during a hang, then the call ends at once, not retryable', async () => {
    const s = await replay([{ request, response: { body: ccxtRows }, hang: true }]);
    const started = Date.now();
    const err = await rejection(
      source(s.url, 5000).fetchClosed({
        exchangeSymbol: 'BTCUSDT',
        interval: '1h',
        since,
        now: 1706641200000,
        signal: AbortSignal.timeout(100),
      }),
    );
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(/aborted by the caller/);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(s.served).toEqual([servedKey]);
  });
});

describe('Kraken OHLC (GET /0/public/OHLC)', () => {
  // DawnKosmos/kraken-go's recorded answer to XBTUSD daily candles, taken on 2023-04-17 (last row partial).
  const daily = fixture('kraken-ohlc-XXBTZUSD-1440-dawnkosmos.json') as {
    result: { XXBTZUSD: [number, string, string, string, string, string, string, number][]; last: number };
  };
  const rows = daily.result.XXBTZUSD;
  const since = 1680912000000; // 2023-04-08T00:00Z, the first recorded row
  const current = 1681689600000; // 2023-04-17T00:00Z, the final, uncommitted entry
  // since is sent one interval early: Kraken answers candles *after* since.
  const request = {
    method: 'GET' as const,
    path: '/0/public/OHLC',
    query: { pair: 'XBTUSD', interval: '1440', since: String(since / 1000 - 86_400) },
  };
  const servedKey = `GET /0/public/OHLC?interval=1440&pair=XBTUSD&since=${since / 1000 - 86_400}`;
  const source = (url: string, timeoutMs?: number) => createKrakenOhlcSource({ baseUrl: url, timeoutMs, retry });

  test(
    'when XBTUSD comes back as XXBTZUSD with the day in ' + 'progress last, then the nine committed days map exactly',
    async () => {
      const s = await replay([{ request, response: { body: daily } }]);
      const now = current + 12 * HOUR;
      const { candles, known } = await source(s.url).fetchClosed({
        exchangeSymbol: 'XBTUSD',
        interval: '1d',
        since,
        now,
      });

      expect(s.served).toEqual([servedKey]);
      expect(candles).toHaveLength(9);
      expect(candles[0]).toEqual({
        openTime: 1680912000000,
        open: '27923.0',
        high: '28170.0',
        low: '27886.0',
        close: '27956.0',
        volume: '814.32026236',
        trades: 15890,
      });
      expect(candles[2]).toEqual({
        openTime: 1681084800000,
        open: '28333.8',
        high: '29800.0',
        low: '28170.0',
        close: '29655.0',
        volume: '5357.58172588',
        trades: 46175,
      });
      expect(candles[8]).toEqual({
        openTime: 1681603200000,
        open: '30315.9',
        high: '30555.6',
        low: '30145.0',
        close: '30316.0',
        volume: '1432.96396029',
        trades: 18436,
      });
      candles.forEach((c, i) => {
        const row = rows[i]!;
        // vwap (row[5]) is not a candle field; volume is row[6], trades row[7].
        expect([c.openTime, c.open, c.high, c.low, c.close, c.volume, c.trades]).toEqual([
          row[0] * 1000,
          row[1],
          row[2],
          row[3],
          row[4],
          row[6],
          row[7],
        ]);
      });
      expect(candles.some((c) => c.openTime === current)).toBe(false);
      expect(known).toEqual({ start: since, end: current });
    },
  );

  test(
    'when our clock is past the end of the final entry (a stale answer), ' +
      'then it is still dropped and known stops at it',
    async () => {
      const s = await replay([{ request, response: { body: daily } }]);
      const { candles, known } = await source(s.url).fetchClosed({
        exchangeSymbol: 'XBTUSD',
        interval: '1d',
        since,
        now: current + DAY + 6 * HOUR,
      });
      expect(candles.map((c) => c.openTime)).toEqual(rows.slice(0, 9).map((r) => r[0] * 1000));
      expect(known).toEqual({ start: since, end: current });
    },
  );

  test('when now is earlier than the final entry, then known ends at the bucket in progress at now', async () => {
    const s = await replay([{ request, response: { body: daily } }]);
    const now = 1681516800000 + 3 * HOUR; // inside 2023-04-15
    const { candles, known } = await source(s.url).fetchClosed({
      exchangeSymbol: 'XBTUSD',
      interval: '1d',
      since,
      now,
    });
    expect(candles.map((c) => c.openTime)).toEqual(rows.slice(0, 7).map((r) => r[0] * 1000));
    expect(known).toEqual({ start: since, end: 1681516800000 });
  });

  test(
    'when since is older than the 720-bucket window, then ' + 'known starts at the oldest bucket Kraken still serves',
    async () => {
      // The recorded body stands in for the answer to an older since (the real one would also carry the
      // older rows of the window); only the known.start arithmetic is under test here.
      const old = Date.UTC(2020, 0, 1);
      const s = await replay([
        {
          request: { ...request, query: { ...request.query, since: String(old / 1000 - 86_400) } },
          response: { body: daily },
        },
      ]);
      const { candles, known } = await source(s.url).fetchClosed({
        exchangeSymbol: 'XBTUSD',
        interval: '1d',
        since: old,
        now: current + HOUR,
      });
      expect(candles).toHaveLength(9);
      expect(known).toEqual({ start: current - 719 * DAY, end: current });
    },
  );

  test(
    'when the recorded XBTUSDT hourly answer has a string ' + 'last and a row before since, then both are handled',
    async () => {
      // ccxt's recorded kraken fetchOHLCV answer (BTC/USDT 1h, since 1706628191000). ccxt trimmed rows out
      // of the middle of it, so the gap 2024-01-30 20:00 … 2024-02-01 14:00 is an edit, not a no-trade span.
      const body = fixture('kraken-ohlc-XBTUSDT-60-ccxt-static.json');
      const since1h = 1706628191000;
      const s = await replay([
        {
          request: {
            method: 'GET',
            path: '/0/public/OHLC',
            query: { pair: 'XBTUSDT', interval: '60', since: '1706624591' },
          },
          response: { body },
        },
      ]);
      const { candles, known } = await source(s.url).fetchClosed({
        exchangeSymbol: 'XBTUSDT',
        interval: '1h',
        since: since1h,
        now: 1706799600000 + 10 * 60_000,
      });
      expect(s.served).toEqual(['GET /0/public/OHLC?interval=60&pair=XBTUSDT&since=1706624591']);
      // 15:00 opens before since and the 2024-02-01 14:00 entry is the uncommitted one: both dropped.
      expect(candles.map((c) => c.openTime)).toEqual([1706630400000, 1706634000000, 1706637600000, 1706641200000]);
      expect(candles[3]).toEqual({
        openTime: 1706641200000,
        open: '43375.0',
        high: '43539.7',
        low: '43357.1',
        close: '43539.7',
        volume: '10.82796308',
        trades: 137,
      });
      // last = "1706796000" (a string here) is the last committed bucket, one before the final entry.
      expect(known).toEqual({ start: 1706630400000, end: 1706799600000 });
    },
  );

  test(
    'when Kraken answers HTTP 200 with EQuery:Unknown asset pair, then LiveSourceError, ' +
      "not retryable, with Kraken's message",
    async () => {
      const s = await replay([
        {
          request: { ...request, query: { ...request.query, pair: 'NOPEUSD' } },
          response: { body: fixture('kraken-error-unknown-asset-pair.json') },
        },
      ]);
      const err = await rejection(
        source(s.url).fetchClosed({ exchangeSymbol: 'NOPEUSD', interval: '1d', since, now: current }),
      );
      expect(err.retryable).toBe(false);
      expect(err.message).toContain('EQuery:Unknown asset pair');
      expect(s.served).toHaveLength(1);
    },
  );

  test('when Kraken answers HTTP 200 with EService:Unavailable, then it is retried like a 5xx', async () => {
    const s = await replay([
      { request, response: { body: fixture('kraken-error-service-unavailable.json') }, times: 1 },
      { request, response: { body: daily } },
    ]);
    const { candles } = await source(s.url).fetchClosed({
      exchangeSymbol: 'XBTUSD',
      interval: '1d',
      since,
      now: current + HOUR,
    });
    expect(candles).toHaveLength(9);
    expect(s.served).toEqual([servedKey, servedKey]);
  });

  test(
    'when the first answer is 429 with Retry-After: 1, then ' + 'the call waits about a second, retries and succeeds',
    async () => {
      const s = await replay([
        {
          request,
          response: { status: 429, body: { error: ['EGeneral:Too many requests'] }, headers: { 'retry-after': '1' } },
          times: 1,
        },
        { request, response: { body: daily } },
      ]);
      const started = Date.now();
      const { candles } = await source(s.url).fetchClosed({
        exchangeSymbol: 'XBTUSD',
        interval: '1d',
        since,
        now: current + HOUR,
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(candles).toHaveLength(9);
      expect(s.served).toEqual([servedKey, servedKey]);
    },
  );

  test('when the server answers 502 twice, then the third attempt returns the data', async () => {
    const s = await replay([
      { request, response: { status: 502, body: { error: ['EService:Unavailable'] } }, times: 2 },
      { request, response: { body: daily } },
    ]);
    const { candles, known } = await source(s.url).fetchClosed({
      exchangeSymbol: 'XBTUSD',
      interval: '1d',
      since,
      now: current + HOUR,
    });
    expect(candles).toHaveLength(9);
    expect(known).toEqual({ start: since, end: current });
    expect(s.served).toEqual([servedKey, servedKey, servedKey]);
  });

  test('when a 4xx other than 429 comes back, then LiveSourceError at once, not retryable', async () => {
    const s = await replay([{ request, response: { status: 403, body: { error: ['EGeneral:Permission denied'] } } }]);
    const err = await rejection(
      source(s.url).fetchClosed({ exchangeSymbol: 'XBTUSD', interval: '1d', since, now: current }),
    );
    expect(err).toMatchObject({ retryable: false, status: 403 });
    expect(err.message).toContain('EGeneral:Permission denied');
    expect(s.served).toHaveLength(1);
  });

  test(
    'when the server hangs, then each attempt times out ' + 'and the call ends with a retryable LiveSourceError',
    async () => {
      const s = await replay([{ request, response: { body: daily }, hang: true }]);
      const started = Date.now();
      const err = await rejection(
        createKrakenOhlcSource({
          baseUrl: s.url,
          timeoutMs: 150,
          retry: { maxRetries: 2, baseDelayMs: 10 },
        }).fetchClosed({ exchangeSymbol: 'XBTUSD', interval: '1d', since, now: current }),
      );
      expect(err.retryable).toBe(true);
      expect(err.message).toMatch(/no answer within 150 ms/);
      expect(s.served).toEqual([servedKey, servedKey, servedKey]);
      expect(Date.now() - started).toBeLessThan(2500);
    },
  );
});
