import type { BenchContext } from '../lib/context';
import type { Figure } from '../lib/report';
import { percentile, timed } from '../lib/stats';

/**
 * The plain row select of the same window (the store's `candles`, src/market/store/market-candles.ts): what reading
 * the candles straight from Postgres costs. The API's own statement (`candlesJson`) does more in the same round trip:
 * it spends the account's rate-limit point and writes the page's JSON.
 */
const SQL =
  `SELECT (extract(epoch FROM ts) * 1000)::float8 AS t, open::float8 AS o, ` +
  `high::float8 AS h, low::float8 AS l,
  close::float8 AS c, volume::float8 AS v, trades AS n FROM market_candles
  WHERE symbol = $1 AND interval = $2 AND ts >= $3 AND ts < $4 ORDER BY ts ASC LIMIT $5`;

const CASES = [
  {
    interval: '1m',
    symbol: 'BTC-USDT',
    from: Date.parse('2024-12-01T00:00:00Z'),
    to: Date.parse('2024-12-28T00:00:00Z'),
  },
  {
    interval: '1h',
    symbol: 'BTC-USD',
    from: Date.parse('2015-01-01T00:00:00Z'),
    to: Date.parse('2023-06-01T00:00:00Z'),
  },
  // 520 weeks are stored for BTC-USD (2013-10 → 2023-09): every request returns all of them.
  { interval: '1w', symbol: 'BTC-USD', from: 0, to: 0 },
] as const;

/**
 * P6: GET /api/v1/market-data/candles with limit=1000 through the whole API (auth, per-key rate limit,
 * validation, the query, JSON) ÷ the same SQL run raw on the same pool; sequential keep-alive
 * requests at random windows, uncompressed.
 */
export async function measureCandles(ctx: BenchContext): Promise<Figure[]> {
  const { stack, config } = ctx;
  const requests = config.BENCH_CANDLE_REQUESTS;
  const user = await stack.createUser();
  // The bench measures the read path, not the limiter's refusals.
  await stack.pool.query(
    `UPDATE api_keys SET rate_limit_tier = 'enterprise', requests_per_minute = 1000000 WHERE user_id = $1`,
    [user.id],
  );
  const headers = { authorization: `Bearer ${user.key}`, 'accept-encoding': 'identity' };
  const figures: Figure[] = [];

  for (const c of CASES) {
    const starts = Array.from({ length: requests }, () =>
      c.to ? c.from + Math.floor((Math.random() * (c.to - c.from)) / 60_000) * 60_000 : 0,
    );
    const url = (start: number) =>
      `${stack.api.url}/api/v1/market-data/candles?symbol=${c.symbol}` +
      `&interval=${c.interval}&limit=1000&startTime=${start}`;
    const get = async (start: number) => {
      const res = await fetch(url(start), { headers });
      const body = (await res.json()) as { meta?: { total?: number } };
      if (res.status !== 200) throw new Error(`candles answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
      return body.meta?.total ?? 0;
    };
    const select = (start: number) =>
      stack.pool.query({
        name: 'bench-candles',
        text: SQL,
        values: [c.symbol, c.interval, new Date(start).toISOString(), 'infinity', 1000],
      });
    for (const start of starts.slice(0, 20)) await get(start);

    ctx.progress(`P6: ${requests} candle requests and ${requests} raw selects, ${c.interval}`);
    // Each window through the API, then the same window raw: both sides see the same moments of machine load.
    const api: number[] = [];
    const raw: number[] = [];
    let candles = 0;
    for (const start of starts) {
      const { ms, result } = await timed(() => get(start));
      api.push(ms);
      candles += result;
      raw.push((await timed(() => select(start))).ms);
    }
    figures.push({
      id: 'P6',
      figure: `candles ${c.interval} ${c.symbol} limit=1000 p99, sequential ÷ the same SQL raw on the same pool`,
      value: percentile(api, 99),
      baseline: percentile(raw, 99),
      unit: 'ms',
      note:
        `p50 ${percentile(api, 50).toFixed(1)} vs ${percentile(raw, 50).toFixed(1)} ms; ` +
        `${(candles / requests).toFixed(0)} candles per answer`,
    });
  }
  return figures;
}
