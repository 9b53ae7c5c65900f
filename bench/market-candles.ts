/**
 * Candles at limit=1000 through the whole API (auth, rate limit, validation, query, JSON) beside the
 * same SQL run raw on the same pool in the same run, for 1m, 1h and 1w; plus what a rollup saves
 * (1h aggregated from 1m per request) and the time to load the shipped files from scratch.
 * Run: npm run bench:market   (REQUESTS per interval, default 500)
 */
import globalSetup from '../test/setup/global-setup';
import globalTeardown from '../test/setup/global-teardown';
import { loadMarketData } from '../src/db/market-files';
import { createLogger } from '../src/logger';
import { startTestStack } from '../test/helpers/test-stack';

const REQUESTS = Number(process.env.REQUESTS ?? 500);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(2).padStart(6)} ms  p99 ${pct(xs, 99).toFixed(2).padStart(6)} ms`;

// The store's own statement (src/db/market-candles.ts), with an explicit window so every request returns a full page.
const SQL = `SELECT (extract(epoch FROM ts) * 1000)::float8 AS t, open::float8 AS o, high::float8 AS h, low::float8 AS l,
  close::float8 AS c, volume::float8 AS v, trades AS n FROM market_candles
  WHERE symbol = $1 AND interval = $2 AND ts >= $3 AND ts < $4 ORDER BY ts ASC LIMIT $5`;

const CASES = [
  { interval: '1m', symbol: 'BTC-USDT', from: Date.parse('2024-12-01T00:00:00Z'), to: Date.parse('2024-12-28T00:00:00Z') },
  { interval: '1h', symbol: 'BTC-USD', from: Date.parse('2015-01-01T00:00:00Z'), to: Date.parse('2023-06-01T00:00:00Z') },
  // 520 weeks are stored for BTC-USD (2013-10 → 2023-09): every request returns all of them.
  { interval: '1w', symbol: 'BTC-USD', from: 0, to: 0 },
] as const;

async function main() {
  await globalSetup();
  const stack = await startTestStack({ env: { LOG_LEVEL: 'silent' }, worker: false });
  const user = await stack.createUser();
  await stack.pool.query(`UPDATE api_keys SET rate_limit_tier = 'enterprise', requests_per_minute = 1000000 WHERE user_id = $1`, [user.id]);
  const identity = { authorization: `Bearer ${user.key}`, 'accept-encoding': 'identity' };
  const gzipped = { authorization: `Bearer ${user.key}`, 'accept-encoding': 'gzip' };

  console.log(`candles, limit=1000, ${REQUESTS} sequential requests per interval (keep-alive), warm cache`);
  for (const c of CASES) {
    const starts = Array.from({ length: REQUESTS }, () => (c.to ? c.from + Math.floor(Math.random() * (c.to - c.from) / 60_000) * 60_000 : 0));
    const url = (s: number) => `${stack.api.url}/api/v1/market-data/candles?symbol=${c.symbol}&interval=${c.interval}&limit=1000&startTime=${s}`;
    for (const s of starts.slice(0, 20)) await (await fetch(url(s), { headers: identity })).arrayBuffer();
    const api: number[] = [];
    let rows = 0;
    let bytes = 0;
    for (const s of starts) {
      const t0 = performance.now();
      const res = await fetch(url(s), { headers: identity });
      const body = await res.text();
      api.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${body.slice(0, 200)}`);
      rows += (JSON.parse(body) as { meta: { total: number } }).meta.total;
      bytes += body.length;
    }
    // The same requests gzipped (fetch inflates them, so this includes the client's inflate too).
    const gz: number[] = [];
    let wireBytes = 0;
    for (const s of starts) {
      const t0 = performance.now();
      const res = await fetch(url(s), { headers: gzipped });
      await res.arrayBuffer();
      gz.push(performance.now() - t0);
      if (res.headers.get('content-encoding') !== 'gzip') throw new Error('expected a gzipped answer');
    }
    {
      const raw = await import('node:http');
      wireBytes = await new Promise<number>((resolve, reject) => {
        raw.get(url(starts[0] ?? 0), { headers: gzipped }, (res) => {
          let n = 0;
          res.on('data', (chunk: Buffer) => (n += chunk.length));
          res.on('end', () => resolve(n));
        }).on('error', reject);
      });
    }
    const sql: number[] = [];
    for (const s of starts) {
      const t0 = performance.now();
      await stack.pool.query({ name: 'bench-candles', text: SQL, values: [c.symbol, c.interval, new Date(s).toISOString(), 'infinity', 1000] });
      sql.push(performance.now() - t0);
    }
    console.log(`  ${c.interval.padEnd(3)} ${c.symbol.padEnd(9)} API ${fmt(api)}   raw SQL ${fmt(sql)}   ${(rows / REQUESTS).toFixed(0)} candles, ${(bytes / REQUESTS / 1024).toFixed(0)} kB per answer`);
    console.log(`      gzip        API ${fmt(gz)}   ${(wireBytes / 1024).toFixed(0)} kB on the wire`);
  }

  // What the stored rollups avoid: 1000 hourly buckets aggregated from 60,000 one-minute rows per request.
  const onTheFly: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = Date.parse('2024-12-01T00:00:00Z') + Math.floor(Math.random() * 48) * 3_600_000;
    const t0 = performance.now();
    await stack.pool.query(
      `SELECT date_bin('1 hour', ts, TIMESTAMPTZ '2000-01-03 00:00:00+00') AS b, (array_agg(open ORDER BY ts))[1], max(high), min(low),
              (array_agg(close ORDER BY ts DESC))[1], sum(volume), sum(trades)
       FROM market_candles WHERE symbol = 'BTC-USDT' AND interval = '1m' AND ts >= $1 AND ts < $2 GROUP BY b ORDER BY b LIMIT 1000`,
      [new Date(start).toISOString(), new Date(start + 1000 * 3_600_000).toISOString()],
    );
    onTheFly.push(performance.now() - t0);
  }
  console.log(`  for comparison, 1h aggregated per request from 1m rows (no rollup): ${fmt(onTheFly)} (20 runs)`);

  await stack.pool.query('TRUNCATE market_candles, market_native_ranges, market_series, market_files, market_symbols');
  const t0 = performance.now();
  const loads = await loadMarketData(stack.pool, 'data/market', createLogger('silent'));
  const { rows } = await stack.pool.query<{ n: number; native: number }>(`SELECT count(*)::int AS n, count(*) FILTER (WHERE origin = 'native')::int AS native FROM market_candles`);
  console.log(`load from scratch: ${loads.length} files, ${rows[0]?.native} native candles, ${rows[0]?.n} stored with rollups, ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  await stack.stop();
  await globalTeardown();
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
