-- Market data (issue 7): candles at every served interval, the native ranges they come from, and
-- per-key rate-limit tiers with the shared counter store of rate-limiter-flexible.

-- One row per tradable pair we serve; a symbol comes from exactly one connector (venue), so a
-- second file of another venue cannot silently mix prices into it.
CREATE TABLE market_symbols (
  symbol           text PRIMARY KEY CHECK (symbol ~ '^[A-Z0-9]{2,12}-[A-Z0-9]{2,12}$'),
  connector        text NOT NULL,
  exchange_symbol  text NOT NULL,
  market           text NOT NULL CHECK (market IN ('spot', 'usdm-futures')),
  created_at       timestamptz NOT NULL DEFAULT now()
);

-- Every served interval is stored: 'native' rows as the exchange published them, 'rollup' rows
-- aggregated at ingest from the next finer served interval, so a request is one primary-key range scan.
-- ts is the bucket open (UTC); weeks open on Monday 00:00. A bucket without trades has no row.
-- No foreign key to market_symbols: its per-row trigger doubled the load time, and every writer
-- goes through ingestCandles, which registers the symbol first.
CREATE TABLE market_candles (
  symbol    text NOT NULL,
  interval  text NOT NULL CHECK (interval IN ('1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w')),
  ts        timestamptz NOT NULL,
  open      numeric NOT NULL,
  high      numeric NOT NULL,
  low       numeric NOT NULL,
  close     numeric NOT NULL,
  volume    numeric NOT NULL CHECK (volume >= 0),
  trades    integer CHECK (trades >= 0),
  origin    text NOT NULL CHECK (origin IN ('native', 'rollup')),
  PRIMARY KEY (symbol, interval, ts),
  CHECK (low <= least(open, close) AND greatest(open, close) <= high)
);

-- Where a native series is known, as half-open [start_ts, end_ts) ranges: inside a range a missing
-- bucket means "no trades"; outside every range nothing is known, so no rollup bucket is built there.
CREATE TABLE market_native_ranges (
  symbol    text NOT NULL REFERENCES market_symbols (symbol),
  interval  text NOT NULL,
  start_ts  timestamptz NOT NULL,
  end_ts    timestamptz NOT NULL,
  PRIMARY KEY (symbol, interval, start_ts),
  CHECK (start_ts < end_ts)
);

-- What capabilities lists, refreshed after every ingest (a per-request GROUP BY would scan every row).
CREATE TABLE market_series (
  symbol     text NOT NULL REFERENCES market_symbols (symbol),
  interval   text NOT NULL,
  first_ts   timestamptz NOT NULL,
  last_ts    timestamptz NOT NULL,
  candles    integer NOT NULL,
  native     boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (symbol, interval)
);

-- Files already ingested, by the SHA-256 of their uncompressed content: a restart loads nothing twice.
CREATE TABLE market_files (
  sha256     text PRIMARY KEY,
  path       text NOT NULL,
  symbol     text NOT NULL REFERENCES market_symbols (symbol),
  interval   text NOT NULL,
  candles    integer NOT NULL,
  loaded_at  timestamptz NOT NULL DEFAULT now()
);

-- Rate-limit tier per API key: free 60/min, pro 300/min, enterprise its own figure.
ALTER TABLE api_keys
  ADD COLUMN rate_limit_tier text NOT NULL DEFAULT 'free' CHECK (rate_limit_tier IN ('free', 'pro', 'enterprise')),
  ADD COLUMN requests_per_minute integer CHECK (requests_per_minute BETWEEN 1 AND 1000000),
  ADD CONSTRAINT api_keys_enterprise_has_rate CHECK ((rate_limit_tier = 'enterprise') = (requests_per_minute IS NOT NULL));

-- rate-limiter-flexible's RateLimiterPostgres table (its own layout), shared by every api instance.
CREATE TABLE rate_limit_counters (
  key     varchar(255) PRIMARY KEY,
  points  integer NOT NULL DEFAULT 0,
  expire  bigint
);
