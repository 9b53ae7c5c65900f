import type { BatchItem } from './batch-store';
import { itemView } from './batch-views';

/** The columns of results.csv, in order (docs/batches.md). */
export const CSV_COLUMNS = [
  'index',
  'request_id',
  'api_type',
  'chain',
  'target',
  'reference_id',
  'status',
  'risk_level',
  'risk_score',
  'standard_risk_level',
  'standard_risk_score',
  'credits_charged',
  'error_code',
  'error_message',
] as const;

/** A spreadsheet reads a cell starting with one of these as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 field: quoted when it holds a comma, a quote or a line break (quotes doubled). Text that a
 * spreadsheet would run as a formula (reference_id and target are the caller's own text) gets a leading `'`.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvRecord = (fields: readonly (string | number | null)[]): string => `${fields.map(csvField).join(',')}\r\n`;

export const csvHeader = (): string => csvRecord(CSV_COLUMNS);

/** One item as a CSV record (CRLF-terminated), the columns of CSV_COLUMNS. */
export function csvRow(item: BatchItem): string {
  const v = itemView(item);
  return csvRecord([
    v.index,
    v.request_id,
    v.api_type,
    v.chain,
    v.target,
    v.reference_id,
    v.status,
    v.risk_level,
    v.risk_score,
    v.standard_risk_level,
    v.standard_risk_score,
    v.credits_charged,
    v.error?.code ?? null,
    v.error?.message ?? null,
  ]);
}
