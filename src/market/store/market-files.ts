import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Pool } from 'pg';
import { z } from 'zod';
import { SYMBOL_RE } from '../domain/candle';
import { CANDLE_FILE_FORMATS, parseCandleFile } from '../domain/candle-files';
import { CANDLE_INTERVALS } from '../domain/intervals';
import type { Logger } from '../../platform/logging/logger';
import { ingestCandles, lockSymbol, MarketIngestError, refreshRollups } from './market-ingest';
import { inTransaction } from '../../platform/db/transaction';

/** One entry of data/market/catalog.json: which file feeds which symbol, and the digest it must have. */
export const catalogEntrySchema = z.object({
  path: z.string().min(1),
  connector: z.string().regex(/^[a-z][a-z0-9-]*$/),
  market: z.enum(['spot', 'usdm-futures']),
  symbol: z.string().regex(SYMBOL_RE),
  exchangeSymbol: z.string().min(1),
  interval: z.enum(CANDLE_INTERVALS),
  format: z.enum(CANDLE_FILE_FORMATS),
  /** Of the uncompressed content; a file that differs from what SOURCES.md documents is refused. */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** Rows at the end known to be an unfinished bucket (the dump was taken mid-bucket). */
  dropLastRows: z.number().int().min(0).default(0),
  why: z.string().optional(),
});
export type CatalogEntry = z.infer<typeof catalogEntrySchema>;
const catalogSchema = z.object({ description: z.string().optional(), files: z.array(catalogEntrySchema) });

export async function readCatalog(dataDir: string): Promise<CatalogEntry[]> {
  return catalogSchema.parse(JSON.parse(await readFile(path.join(dataDir, 'catalog.json'), 'utf8'))).files;
}

const LOAD_LOCK_ID = 4_210_407;

export interface FileLoad {
  path: string;
  symbol: string;
  interval: string;
  candles: number;
  skipped: boolean;
}

async function readContent(file: string): Promise<{ text: string; sha256: string }> {
  const raw = await readFile(file);
  const bytes = file.endsWith('.gz') ? gunzipSync(raw) : raw;
  return { text: bytes.toString('utf8'), sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * Loads catalog files not loaded before (by content digest). Each symbol's new files and its
 * rollups commit together, so a request never sees a symbol half-loaded.
 */
export async function loadMarketFiles(
  pool: Pool,
  dataDir: string,
  entries: readonly CatalogEntry[],
  log: Logger,
): Promise<FileLoad[]> {
  const results: FileLoad[] = [];
  const lock = await pool.connect();
  try {
    // Several processes may start at once (api + worker): one loads, the others then find it done.
    await lock.query('SELECT pg_advisory_lock($1)', [LOAD_LOCK_ID]);
    const bySymbol = new Map<string, CatalogEntry[]>();
    for (const e of entries) bySymbol.set(e.symbol, [...(bySymbol.get(e.symbol) ?? []), e]);
    const loadSymbol = async (symbol: string, files: CatalogEntry[]) => {
      const started = Date.now();
      const loads = await inTransaction(pool, async (client) => {
        await lockSymbol(client, symbol);
        const done: FileLoad[] = [];
        for (const entry of files) {
          const { text, sha256 } = await readContent(path.join(dataDir, entry.path));
          if (entry.sha256 && entry.sha256 !== sha256) {
            throw new MarketIngestError(
              `${entry.path}: content sha256 ${sha256} is not the catalogued ${entry.sha256}`,
            );
          }
          const seen = await client.query<{ candles: number }>('SELECT candles FROM market_files WHERE sha256 = $1', [
            sha256,
          ]);
          if (seen.rows[0]) {
            done.push({
              path: entry.path,
              symbol,
              interval: entry.interval,
              candles: seen.rows[0].candles,
              skipped: true,
            });
            continue;
          }
          let candles: ReturnType<typeof parseCandleFile>;
          try {
            candles = parseCandleFile(text, entry.format, entry.interval);
          } catch (err) {
            throw new MarketIngestError(`${entry.path}: ${(err as Error).message}`);
          }
          candles = candles.slice(0, candles.length - entry.dropLastRows);
          await ingestCandles(client, entry, { interval: entry.interval, candles }, { refresh: false });
          await client.query(
            'INSERT INTO market_files (sha256, path, symbol, interval, candles) VALUES ($1, $2, $3, $4, $5)',
            [sha256, entry.path, symbol, entry.interval, candles.length],
          );
          done.push({ path: entry.path, symbol, interval: entry.interval, candles: candles.length, skipped: false });
        }
        if (done.some((d) => !d.skipped)) await refreshRollups(client, symbol);
        return done;
      });
      results.push(...loads);
      const loaded = loads.filter((l) => !l.skipped);
      if (loaded.length > 0)
        log.info('market data loaded', {
          symbol,
          files: loaded.map((l) => l.path),
          candles: loaded.reduce((n, l) => n + l.candles, 0),
          ms: Date.now() - started,
        });
    };
    // Two symbols at a time: each is one transaction on its own connection, and Postgres does the work.
    const queue = [...bySymbol];
    const runner = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await loadSymbol(...next);
    };
    await Promise.all([runner(), runner()]);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [LOAD_LOCK_ID]).catch(() => undefined);
    lock.release();
  }
  return results;
}

/** Everything data/market/catalog.json lists. */
export async function loadMarketData(pool: Pool, dataDir: string, log: Logger): Promise<FileLoad[]> {
  return loadMarketFiles(pool, dataDir, await readCatalog(dataDir), log);
}
