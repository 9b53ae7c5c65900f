import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { ListEntry, ListIssue } from './list-entry';
import { listedAddress } from './ofac/sdn-address';

/** The shipped list (data/risk/SOURCES.md): OFAC's 2025-11-19 issue plus a daily scrape of later designations. */
export const BUNDLED_OFAC_FILE = 'sanctions_ofac.csv';

interface CsvRow {
  chain: string;
  asset: string;
  address: string;
  sdn_uid: string;
  sdn_name: string;
  sdn_type: string;
  programs: string;
  designated: string;
  status: string;
  first_listed: string;
  source: string;
}

const DATE = /\d{4}-\d{2}-\d{2}/g;
const orNull = (v: string): string | null => (v.trim() === '' ? null : v.trim());

/**
 * The shipped CSV as a list issue. Its issue date is the newest date it holds (the scrape ran to 2026-08-22), so
 * an official issue older than that is refused unless forced instead of silently delisting the later designations.
 * Rows without an OFAC profile number (the scrape's) get `scrape:<address>` as party, so each stays one entry.
 * Rows marked delisted (Tornado Cash, delisted 2025-03-21) become past listings, not listed entries.
 */
export async function readBundledOfac(dataDir: string): Promise<ListIssue> {
  const file = path.join(dataDir, BUNDLED_OFAC_FILE);
  const bytes = await readFile(file);
  const rows: CsvRow[] = parse(bytes, { columns: true, skip_empty_lines: true });
  const entries: ListEntry[] = [];
  const delisted: NonNullable<ListIssue['delisted']> = [];
  const listedOn = new Map<string, string>();
  let newest = '0000-00-00';
  for (const r of rows) {
    for (const d of `${r.designated} ${r.first_listed} ${r.source}`.match(DATE) ?? []) if (d > newest) newest = d;
    const entry: ListEntry = {
      chain: r.chain,
      asset: orNull(r.asset),
      // The file holds each address in its chain's stored form already; an older copy (REFERENCE_DATA_DIR) may not.
      address: listedAddress(r.chain, r.address),
      sdnUid: orNull(r.sdn_uid) ?? `scrape:${r.address}`,
      sdnName: orNull(r.sdn_name),
      sdnType: orNull(r.sdn_type),
      programs: r.programs
        .split(';')
        .map((p) => p.trim())
        .filter(Boolean),
      designated: orNull(r.designated),
    };
    const firstListed = orNull(r.first_listed) ?? entry.designated;
    if (r.status === 'delisted') {
      const delistedOn = r.source.match(/delisted (\d{4}-\d{2}-\d{2})/)?.[1] ?? '2025-03-21';
      delisted.push({ ...entry, listedOn: firstListed ?? delistedOn, delistedOn });
      continue;
    }
    entries.push(entry);
    if (firstListed) listedOn.set(`${entry.chain}\u0000${entry.address}`, firstListed);
  }
  return {
    list: 'ofac',
    source: `data/risk/${BUNDLED_OFAC_FILE}`,
    issueDate: newest,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    entries,
    delisted,
    listedOn,
  };
}
