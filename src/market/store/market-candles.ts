import type { Pool } from 'pg';
import type { SpendInStatement, SpentColumns } from '../../platform/rate-limit/spend-in-statement';
import type { CandleView } from '../domain/candle';
import { CANDLE_INTERVALS, INTERVAL_MS, type CandleInterval } from '../domain/intervals';

export interface MarketSymbol {
  symbol: string;
  connector: string;
  exchangeSymbol: string;
  market: 'spot' | 'usdm-futures';
}

export interface SeriesSummary {
  interval: CandleInterval;
  /** Open of the first and last stored bucket. */
  first: string;
  last: string;
  candles: number;
  /** Published by the exchange at this interval (otherwise rolled up from a finer one). */
  native: boolean;
}

export interface SymbolCatalogue extends MarketSymbol {
  series: SeriesSummary[];
}

export interface CandleQuery {
  symbol: string;
  interval: CandleInterval;
  /** Inclusive bucket-open bound, ms. */
  startTime?: number;
  /** Exclusive bucket-open bound, ms. */
  endTime?: number;
  limit: number;
}

export interface TickerView {
  symbol: string;
  connector: string;
  price: number;
  /** When that price was the close: the end of the last stored bucket. */
  timestamp: string;
  /** The finest stored interval the price comes from. */
  interval: CandleInterval;
  /** The 24 hours up to `timestamp`, from the same interval's buckets; null when none. */
  window24h: {
    open: number;
    high: number;
    low: number;
    volume: number;
    changePercent: number;
    trades: number | null;
  } | null;
}

interface CandleRow {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  n: number | null;
}

const toView = (r: CandleRow): CandleView => ({
  timestamp: new Date(r.t).toISOString(),
  open: r.o,
  high: r.h,
  low: r.l,
  close: r.c,
  volume: r.v,
  trades: r.n,
});

// float8 casts: pg hands numeric over as strings; the API's fields are numbers (spec 2.5).
const CANDLE_COLUMNS =
  `(extract(epoch FROM ts) * 1000)::float8 AS t, open::float8 AS o, ` +
  `high::float8 AS h, low::float8 AS l,
  close::float8 AS c, volume::float8 AS v, trades AS n`;

/**
 * A request's bound as Postgres reads it. Past year 9999 toISOString writes `+275760-09-13T…`, whose
 * leading sign Postgres takes for a time-zone offset (an error, hence a 500); without it the same
 * instant parses, so every bound the validator accepts (up to MAX_TIME_MS) reaches the query.
 */
const bound = (ms: number | undefined, fallback: string) =>
  ms === undefined ? fallback : new Date(ms).toISOString().replace(/^\+/, '');

/**
 * One candle as the JSON object `toView` makes, written by Postgres: the timestamp as toISOString writes it, the
 * numbers in float8's shortest exact form (the same doubles a client parses; only the notation of very large or
 * small values may differ, e.g. 1e-05), trades or null.
 */
const CANDLE_JSON =
  `'{"timestamp":"' || to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ` +
  `'","open":' || open::float8 || ',"high":' || high::float8 || ',"low":' || low::float8 || ` +
  `',"close":' || close::float8 || ',"volume":' || volume::float8 || ',"trades":' || coalesce(trades::text, 'null') ` +
  `|| '}'`;

/** What `candlesJson` read: the page as the JSON text of an array, how many, and the spent point's columns. */
export interface CandlePageJson {
  json: string;
  total: number;
  spent?: SpentColumns;
}

export function createMarketStore(pool: Pool) {
  return {
    async findSymbol(symbol: string): Promise<MarketSymbol | null> {
      const { rows } = await pool.query<MarketSymbol>(
        `SELECT symbol, connector, exchange_symbol AS "exchangeSymbol", market FROM market_symbols WHERE symbol = $1`,
        [symbol],
      );
      return rows[0] ?? null;
    },

    /** Every symbol with what is stored per interval (what capabilities lists). */
    async catalogue(): Promise<SymbolCatalogue[]> {
      const { rows } = await pool.query<
        MarketSymbol & {
          interval: CandleInterval | null;
          first_ts: Date | null;
          last_ts: Date | null;
          candles: number | null;
          native: boolean | null;
        }
      >(
        `SELECT s.symbol, s.connector, s.exchange_symbol AS "exchangeSymbol", s.market, m.interval, m.first_ts, ` +
          `m.last_ts, m.candles, m.native
         FROM market_symbols s LEFT JOIN market_series m ON m.symbol = s.symbol ORDER BY s.symbol`,
      );
      const bySymbol = new Map<string, SymbolCatalogue>();
      for (const r of rows) {
        const entry = bySymbol.get(r.symbol) ?? {
          symbol: r.symbol,
          connector: r.connector,
          exchangeSymbol: r.exchangeSymbol,
          market: r.market,
          series: [],
        };
        bySymbol.set(r.symbol, entry);
        if (r.interval && r.first_ts && r.last_ts) {
          entry.series.push({
            interval: r.interval,
            first: r.first_ts.toISOString(),
            last: r.last_ts.toISOString(),
            candles: r.candles ?? 0,
            native: r.native ?? false,
          });
        }
      }
      for (const e of bySymbol.values())
        e.series.sort((a, b) => CANDLE_INTERVALS.indexOf(a.interval) - CANDLE_INTERVALS.indexOf(b.interval));
      return [...bySymbol.values()];
    },

    /**
     * Buckets with open in [startTime, endTime), ascending. With a startTime the first `limit` from
     * there; without one the latest `limit` before endTime (Binance's convention). One primary-key
     * range scan of at most `limit` rows, whatever the interval: every interval is stored.
     */
    async candles(q: CandleQuery): Promise<CandleView[]> {
      const fromStart = q.startTime !== undefined;
      const { rows } = await pool.query<CandleRow>({
        name: fromStart ? 'market-candles-asc' : 'market-candles-desc',
        text: `SELECT ${CANDLE_COLUMNS} FROM market_candles
               WHERE symbol = $1 AND interval = $2 AND ts >= $3 AND ts < $4
               ORDER BY ts ${fromStart ? 'ASC' : 'DESC'} LIMIT $5`,
        values: [q.symbol, q.interval, bound(q.startTime, '-infinity'), bound(q.endTime, 'infinity'), q.limit],
      });
      if (!fromStart) rows.reverse();
      return rows.map(toView);
    },

    /**
     * The same page as `candles`, as the JSON text of its array, built by Postgres: one text value crosses the wire
     * instead of 7 parsed columns a row, and nothing is encoded again here. With `spend`, the request's rate-limit
     * point is spent in the same statement and the page is read only within the limit (over it: an empty page).
     */
    async candlesJson(q: CandleQuery, spend?: SpendInStatement): Promise<CandlePageJson> {
      const fromStart = q.startTime !== undefined;
      const first = spend ? spend.values.length : 0;
      const $ = (n: number) => `$${first + n}`;
      const { rows } = await pool.query<{ json: string | null; total: number } & SpentColumns>({
        name: `market-candles-json-${fromStart ? 'asc' : 'desc'}${spend ? '-spending' : ''}`,
        text: `${spend ? `${spend.withClause},` : 'WITH'} page AS (
                 SELECT ts, open, high, low, close, volume, trades FROM market_candles
                 WHERE symbol = ${$(1)} AND interval = ${$(2)} AND ts >= ${$(3)} AND ts < ${$(4)}
                   ${spend ? `AND ${spend.withinLimit}` : ''}
                 ORDER BY ts ${fromStart ? 'ASC' : 'DESC'} LIMIT ${$(5)}
               )
               SELECT ${spend ? `${spend.columns},` : ''} agg.json, agg.total
               FROM ${spend ? 'spent,' : ''} (
                 SELECT '[' || coalesce(string_agg(${CANDLE_JSON}, ',' ORDER BY ts), '') || ']' AS json,
                   count(*)::int AS total FROM page
               ) agg`,
        values: [
          ...(spend?.values ?? []),
          q.symbol,
          q.interval,
          bound(q.startTime, '-infinity'),
          bound(q.endTime, 'infinity'),
          q.limit,
        ],
      });
      const row = rows[0] as { json: string; total: number } & SpentColumns;
      return {
        json: row.json,
        total: row.total,
        ...(spend && { spent: { spent_points: row.spent_points, spent_expire: row.spent_expire } }),
      };
    },

    /** The latest close of the finest stored interval, with the 24 hours before it. */
    async ticker(symbol: MarketSymbol): Promise<TickerView | null> {
      const finest = await pool.query<{ interval: CandleInterval }>(
        `SELECT interval FROM market_series WHERE symbol = $1 ORDER BY array_position($2::text[], interval) LIMIT 1`,
        [symbol.symbol, CANDLE_INTERVALS],
      );
      const interval = finest.rows[0]?.interval;
      if (!interval) return null;
      const last = await pool.query<CandleRow>(
        `SELECT ${CANDLE_COLUMNS} FROM market_candles WHERE symbol = $1 AND interval = $2 ORDER BY ts DESC LIMIT 1`,
        [symbol.symbol, interval],
      );
      const row = last.rows[0];
      if (!row) return null;
      const closeTime = row.t + INTERVAL_MS[interval];
      const day = await pool.query<{
        o: number | null;
        h: number | null;
        l: number | null;
        v: number | null;
        n: number | null;
        complete: boolean;
      }>(
        `SELECT (array_agg(open ORDER BY ts))[1]::float8 AS o, max(high)::float8 AS h, min(low)::float8 AS l, ` +
          `sum(volume)::float8 AS v,
                sum(trades)::float8 AS n, count(trades) = count(*) AS complete
         FROM market_candles WHERE symbol = $1 AND interval = $2 AND ts >= $3 AND ts < $4`,
        [symbol.symbol, interval, new Date(closeTime - 86_400_000).toISOString(), new Date(closeTime).toISOString()],
      );
      const d = day.rows[0];
      const window24h =
        d && d.o !== null && d.h !== null && d.l !== null && d.v !== null
          ? {
              open: d.o,
              high: d.h,
              low: d.l,
              volume: d.v,
              trades: d.complete ? d.n : null,
              changePercent: Number((((row.c - d.o) / d.o) * 100).toFixed(4)),
            }
          : null;
      return {
        symbol: symbol.symbol,
        connector: symbol.connector,
        price: row.c,
        timestamp: new Date(closeTime).toISOString(),
        interval,
        window24h,
      };
    },
  };
}

export type MarketStore = ReturnType<typeof createMarketStore>;
