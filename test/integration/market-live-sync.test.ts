import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLogger } from '../../src/platform/logging/logger';
import { loadConfig } from '../../src/app/config';
import { createKrakenOhlcSource } from '../../src/market/domain/live/kraken-ohlc';
import { syncSymbol } from '../../src/market/domain/live/sync-symbol';
import { reconcileMarketSync } from '../../src/market/market-sync-schedule';
import { ProviderAttr } from '../../src/platform/temporal/search-attributes';
import { startReplayServer, type ReplayServer } from '../helpers/replay-server';
import { startTestStack, type TestStack } from '../helpers/test-stack';

/**
 * The live connector end to end: a Temporal workflow on the worker polls the exchange (a replay
 * server answering with real recorded responses, test/fixtures/market-live/SOURCES.md), appends
 * the closed candles with their rollups, and they are served by the candles API at once.
 */
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(__dirname, '../fixtures/market-live', name), 'utf8'));
const log = createLogger('silent');

// ccxt's recorded BTCUSDT 1h answer: three candles opening 16:00, 17:00, 18:00 on 2024-01-30.
const FIRST_OPEN = 1706630400000;
const NOW = FIRST_OPEN + 3 * 3_600_000; // 19:00: all three are closed

let stack: TestStack;
let replay: ReplayServer;
let key: string;

const liveEnv = (url: string) => ({
  MARKET_LIVE_CONNECTOR: 'binance',
  MARKET_LIVE_URL: url,
  // A pair Binance refuses comes first: its failure must not stop the pair after it.
  MARKET_LIVE_SYMBOLS: 'TNOPE-USDT=NOPEUSDT,TBTC-USDT=BTCUSDT',
  MARKET_LIVE_INTERVAL: '1h',
  MARKET_LIVE_BACKFILL_CANDLES: '3',
  MARKET_LIVE_POLL_SECONDS: '5',
});

beforeAll(async () => {
  const query = (symbol: string) => ({ symbol, interval: '1h', startTime: String(FIRST_OPEN), limit: '1000' });
  replay = await startReplayServer([
    {
      request: { method: 'GET', path: '/api/v3/klines', query: query('BTCUSDT') },
      response: { body: fixture('binance-klines-BTCUSDT-1h-ccxt-static.json') },
    },
    {
      request: { method: 'GET', path: '/api/v3/klines', query: query('NOPEUSDT') },
      response: { status: 400, body: fixture('binance-error-invalid-symbol.json') },
    },
  ]);
  stack = await startTestStack({ env: liveEnv(replay.url), activityDeps: { marketClock: () => NOW } });
  key = (await stack.createUser()).key;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await replay?.close();
});

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('the sync workflow appends Binance’s closed candles, serves them, survives a refused pair, ' +
  'and resumes without refetching', async () => {
  const workflowId = await reconcileMarketSync(stack.temporal, stack.config, log);
  expect(workflowId).toBe('market-sync:binance');

  const served = await until(async () => {
    const res = await stack.http('GET', '/api/v1/market-data/candles?symbol=TBTC-USDT&interval=1h', {
      headers: { authorization: `Bearer ${key}` },
    });
    return res.status === 200 && res.body.data.length === 3 ? res.body : undefined;
  });
  expect(served.data[0]).toEqual({
    timestamp: '2024-01-30T16:00:00.000Z',
    open: 43519.34,
    high: 43936,
    low: 43171,
    close: 43488.71,
    volume: 20.55495,
    trades: 3743,
  });
  expect(served.data.map((c: { timestamp: string }) => c.timestamp.slice(11, 16))).toEqual(['16:00', '17:00', '18:00']);

  const { rows } = await stack.pool.query('SELECT start_ts, end_ts FROM market_native_ranges WHERE symbol = $1', [
    'TBTC-USDT',
  ]);
  expect(rows).toEqual([{ start_ts: new Date(FIRST_OPEN), end_ts: new Date(NOW) }]);

  // Let a second round run: it starts where the stored series ends (19:00 = now), so it asks nothing for BTCUSDT.
  const handle = stack.temporal.workflow.getHandle('market-sync:binance');
  await until(async () => {
    const history = await handle.fetchHistory();
    const completed = history.events?.filter((e) => e.activityTaskCompletedEventAttributes).length ?? 0;
    return completed >= 2 ? completed : undefined;
  });
  expect(replay.served.filter((k) => k.includes('symbol=BTCUSDT'))).toHaveLength(1);
  expect(replay.served.filter((k) => k.includes('symbol=NOPEUSDT')).length).toBeGreaterThanOrEqual(2);
  expect(replay.misses).toEqual([]);
  const described = await handle.describe();
  expect(described.status.name).toBe('RUNNING');
  // Operators find it in the Temporal UI by Provider="binance".
  expect(described.typedSearchAttributes.get(ProviderAttr)).toBe('binance');

  const caps = await stack.http('GET', '/api/v1/capabilities', { headers: { authorization: `Bearer ${key}` } });
  const binance = caps.body.data.connectors.find((c: { id: string }) => c.id === 'binance');
  expect(binance.liveSync).toEqual({ symbols: ['TNOPE-USDT', 'TBTC-USDT'], pollSeconds: 5 });
  expect(binance.symbols.map((s: { symbol: string }) => s.symbol)).toContain('TBTC-USDT');

  // Turning the sync off (a worker starting without MARKET_LIVE_CONNECTOR) terminates it.
  await reconcileMarketSync(stack.temporal, loadConfig({ TEMPORAL_TASK_QUEUE: stack.config.TEMPORAL_TASK_QUEUE }), log);
  expect((await handle.describe()).status.name).toBe('TERMINATED');
}, 60_000);

test('Kraken: a day-candle sync stores the closed days, leaves out the uncommitted one, ' +
  'builds the whole week it completes, and a repeat adds nothing', async () => {
  const DAY = 86_400_000;
  const firstOpen = 1680912000000; // 2023-04-08, the recording's first row
  const now = firstOpen + 9 * DAY + 12 * 3_600_000; // 2023-04-17 12:00: the recording's last row is still open
  const kraken = await startReplayServer([
    {
      request: {
        method: 'GET',
        path: '/0/public/OHLC',
        query: { pair: 'XBTUSD', interval: '1440', since: String(firstOpen / 1000 - 86_400) },
      },
      response: { body: fixture('kraken-ohlc-XXBTZUSD-1440-dawnkosmos.json') },
      times: 1,
    },
  ]);
  try {
    const target = {
      connector: 'kraken' as const,
      symbol: 'TXBT-USD',
      exchangeSymbol: 'XBTUSD',
      interval: '1d' as const,
      backfillCandles: 9,
    };
    const deps = { pool: stack.pool, source: createKrakenOhlcSource({ baseUrl: kraken.url }), now: () => now };
    expect(await syncSymbol(deps, target)).toEqual({
      symbol: 'TXBT-USD',
      requests: 1,
      candles: 9,
      knownUntil: firstOpen + 9 * DAY,
    });
    expect(await syncSymbol(deps, target)).toEqual({ symbol: 'TXBT-USD', requests: 0, candles: 0, knownUntil: null });
    expect(kraken.misses).toEqual([]);

    const days = await stack.http('GET', '/api/v1/market-data/candles?symbol=TXBT-USD&interval=1d&limit=1000', { key });
    expect(days.body.data).toHaveLength(9);
    expect(days.body.data[8].timestamp).toBe('2023-04-16T00:00:00.000Z');
    const weeks = await stack.http('GET', '/api/v1/market-data/candles?symbol=TXBT-USD&interval=1w', { key });
    // Only Monday 04-10..Sunday 04-16 is wholly inside 04-08..04-17.
    const mondayToSunday = days.body.data.slice(2);
    expect(weeks.body.data).toEqual([
      {
        timestamp: '2023-04-10T00:00:00.000Z',
        open: mondayToSunday[0].open,
        high: Math.max(...mondayToSunday.map((d: { high: number }) => d.high)),
        low: Math.min(...mondayToSunday.map((d: { low: number }) => d.low)),
        close: mondayToSunday[6].close,
        volume: expect.closeTo(
          mondayToSunday.reduce((v: number, d: { volume: number }) => v + d.volume, 0),
          6,
        ),
        trades: mondayToSunday.reduce((n: number, d: { trades: number }) => n + d.trades, 0),
      },
    ]);
  } finally {
    await kraken.close();
  }
}, 30_000);
