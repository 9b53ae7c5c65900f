import type { MarketConfig } from '../../config';
import { SYMBOL_RE } from '../candle';
import type { CandleInterval } from '../intervals';

export interface LiveSymbol {
  symbol: string;
  exchangeSymbol: string;
}

export interface LiveSyncPlan {
  connector: 'binance' | 'kraken';
  baseUrl: string;
  interval: CandleInterval;
  symbols: LiveSymbol[];
  pollSeconds: number;
  backfillCandles: number;
}

const DEFAULTS = {
  binance: { baseUrl: 'https://api.binance.com', symbols: 'BTC-USDT=BTCUSDT' },
  kraken: { baseUrl: 'https://api.kraken.com', symbols: 'BTC-USD=XBTUSD' },
} as const;

/** Kraken still names bitcoin by its old ISO-style code. */
const KRAKEN_ASSET: Record<string, string> = { BTC: 'XBT' };

function exchangePair(connector: 'binance' | 'kraken', symbol: string): string {
  const [base = '', quote = ''] = symbol.split('-');
  return connector === 'kraken' ? `${KRAKEN_ASSET[base] ?? base}${KRAKEN_ASSET[quote] ?? quote}` : `${base}${quote}`;
}

/** What the live sync does, from the config; null when it is off. Throws on a malformed symbol list. */
export function liveSyncPlan(
  config: Pick<
    MarketConfig,
    | 'MARKET_LIVE_CONNECTOR'
    | 'MARKET_LIVE_URL'
    | 'MARKET_LIVE_SYMBOLS'
    | 'MARKET_LIVE_INTERVAL'
    | 'MARKET_LIVE_POLL_SECONDS'
    | 'MARKET_LIVE_BACKFILL_CANDLES'
  >,
): LiveSyncPlan | null {
  if (config.MARKET_LIVE_CONNECTOR === 'off') return null;
  const connector = config.MARKET_LIVE_CONNECTOR;
  const symbols = (config.MARKET_LIVE_SYMBOLS ?? DEFAULTS[connector].symbols)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [symbol = '', pair] = entry.split('=').map((s) => s.trim());
      if (!SYMBOL_RE.test(symbol))
        throw new Error(`MARKET_LIVE_SYMBOLS: "${entry}" is not SYMBOL or SYMBOL=EXCHANGEPAIR (e.g. BTC-USDT=BTCUSDT)`);
      return { symbol, exchangeSymbol: pair || exchangePair(connector, symbol) };
    });
  return {
    connector,
    baseUrl: config.MARKET_LIVE_URL ?? DEFAULTS[connector].baseUrl,
    interval: config.MARKET_LIVE_INTERVAL,
    symbols,
    pollSeconds: config.MARKET_LIVE_POLL_SECONDS,
    backfillCandles: config.MARKET_LIVE_BACKFILL_CANDLES,
  };
}
