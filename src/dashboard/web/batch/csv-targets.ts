import type { BatchTarget } from './batch-types';
import { CsvSyntaxError, csvRecords } from './csv-records';

/** POST /api/v1/kyt/batch takes at most this many items (MAX_BATCH_ITEMS of src/batches). */
export const MAX_BATCH_ITEMS = 1000;
/** Far above 1,000 rows of addresses and references: a larger file is not a list of targets. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

const COLUMNS = ['address', 'txid', 'chain', 'reference_id'] as const;
type Column = (typeof COLUMNS)[number];
const COLUMN_WORDS = 'address or txid, chain, and optionally reference_id';

/** The targets of a file, each with the line it came from (`lines[i]` is item i's line). */
export interface TargetFile {
  items: BatchTarget[];
  lines: number[];
}

export type TargetFileResult = { ok: true; file: TargetFile } | { ok: false; problem: string };

const refuse = (problem: string): TargetFileResult => ({ ok: false, problem });

/** Which column each header cell names, or why the header row is not one. */
function headerColumns(cells: string[]): Column[] | string {
  const names = cells.map((c) => c.trim().toLowerCase());
  const unknown = names.filter((n) => !(COLUMNS as readonly string[]).includes(n));
  if (unknown.length > 0)
    return (
      `The first row must name the columns (${COLUMN_WORDS}); it has “${unknown[0]}”. ` +
      'Add a header row, or correct the column names.'
    );
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated) return `The header row names the column “${repeated}” twice.`;
  if (!names.includes('chain')) return `The header row has no “chain” column (columns: ${COLUMN_WORDS}).`;
  if (!names.includes('address') && !names.includes('txid'))
    return `The header row has neither an “address” nor a “txid” column (columns: ${COLUMN_WORDS}).`;
  return names as Column[];
}

/**
 * The batch items of an uploaded CSV file: a header row naming the columns, then one target per row. Whatever makes
 * the file unreadable as such is refused here in words; whether each target is valid is the API's to say (a bad one
 * is listed with its reason and costs nothing).
 */
export function targetsFromCsv(text: string, bytes: number): TargetFileResult {
  if (bytes > MAX_FILE_BYTES)
    return refuse(`The file is ${(bytes / 1024 / 1024).toFixed(1)} MB: a list of 1,000 targets is far smaller.`);
  if (text.includes('\u0000')) return refuse('This is not a text file: upload a CSV file (comma-separated text).');
  let records: ReturnType<typeof csvRecords>;
  try {
    records = csvRecords(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError) return refuse(`The file is not valid CSV: ${err.message}`);
    throw err;
  }
  const [header, ...rows] = records;
  if (!header) return refuse(`The file is empty: it needs a header row (${COLUMN_WORDS}) and one row per target.`);
  const columns = headerColumns(header.cells);
  if (typeof columns === 'string') return refuse(columns);

  const items: BatchTarget[] = [];
  const lines: number[] = [];
  for (const row of rows) {
    if (row.cells.every((c) => c.trim() === '')) continue;
    if (row.cells.length > columns.length)
      return refuse(
        `Line ${row.line} has ${row.cells.length} fields but the header names ${columns.length} columns. ` +
          'A field holding a comma must be in double quotes.',
      );
    const value = (column: Column) => row.cells[columns.indexOf(column)]?.trim() ?? '';
    const item: BatchTarget = { chain: value('chain') };
    if (value('address')) item.address = value('address');
    if (value('txid')) item.txid = value('txid');
    if (value('reference_id')) item.reference_id = value('reference_id');
    items.push(item);
    lines.push(row.line);
  }
  if (items.length === 0) return refuse('The file has a header row but no targets under it.');
  if (items.length > MAX_BATCH_ITEMS)
    return refuse(
      `The file has ${items.length.toLocaleString('en-US')} targets: a batch takes at most ` +
        `${MAX_BATCH_ITEMS.toLocaleString('en-US')}. Split it into several files.`,
    );
  return { ok: true, file: { items, lines } };
}
