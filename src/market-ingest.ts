/**
 * `npm run market:ingest`: loads new candle files into DATABASE_URL (migrating it first), then exits.
 *   npm run market:ingest -- --catalog data/market            every file of <dir>/catalog.json not loaded yet
 *   npm run market:ingest -- FILE --symbol BTC-USD --interval 1h --format kraken-ohlcvt \
 *        --connector kraken --exchange-symbol XBTUSD [--market spot] [--sha256 HEX] [--drop-last N]
 * A file is loaded once (by content digest); its symbol's rollups are rebuilt in the same transaction.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { loadConfigOrExit } from './app/config';
import { catalogEntrySchema, loadMarketData, loadMarketFiles } from './market/store/market-files';
import { SCHEMA_FOLDERS } from './app/schema-folders';
import { migrate } from './platform/db/migrate';
import { createPool } from './platform/db/pool';
import { createLogger, stderrDestination } from './platform/logging/logger';

const USAGE =
  'usage: npm run market:ingest -- --catalog DIR | FILE --symbol S --interval I --format F --connector C ' +
  '--exchange-symbol X [--market spot|usdm-futures] [--sha256 H] [--drop-last N]';

async function main() {
  const config = loadConfigOrExit();
  const log = createLogger(config.LOG_LEVEL, { process: 'market-ingest' }, stderrDestination(config.LOG_FORMAT));
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      catalog: { type: 'string' },
      symbol: { type: 'string' },
      interval: { type: 'string' },
      format: { type: 'string' },
      connector: { type: 'string' },
      'exchange-symbol': { type: 'string' },
      market: { type: 'string', default: 'spot' },
      sha256: { type: 'string' },
      'drop-last': { type: 'string', default: '0' },
    },
  });
  if (!config.DATABASE_URL) {
    log.error('market:ingest needs DATABASE_URL (npm start loads data/market into its embedded database itself)');
    process.exit(78);
  }
  const pool = createPool(config.DATABASE_URL, 3);
  try {
    await migrate(pool, log, SCHEMA_FOLDERS);
    if (values.catalog) {
      report(await loadMarketData(pool, values.catalog, log));
      return;
    }
    const [file] = positionals;
    if (!file || positionals.length > 1) throw new UsageError(USAGE);
    const entry = catalogEntrySchema.safeParse({
      path: path.basename(file),
      symbol: values.symbol,
      interval: values.interval,
      format: values.format,
      connector: values.connector,
      exchangeSymbol: values['exchange-symbol'],
      market: values.market,
      sha256: values.sha256,
      dropLastRows: Number(values['drop-last']),
    });
    if (!entry.success) throw new UsageError(`${z.prettifyError(entry.error)}\n${USAGE}`);
    report(await loadMarketFiles(pool, path.dirname(file), [entry.data], log));
  } finally {
    await pool.end();
  }
}

class UsageError extends Error {}

function report(loads: { path: string; symbol: string; interval: string; candles: number; skipped: boolean }[]) {
  for (const l of loads)
    process.stdout.write(
      `${l.skipped ? 'already loaded' : 'loaded'}  ${l.symbol} ${l.interval}  ${l.candles} candles  ${l.path}\n`,
    );
}

main().catch((err) => {
  process.stderr.write(`market:ingest failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(err instanceof UsageError ? 64 : 1);
});
