import type { Pool, PoolClient } from 'pg';
import type { ListDiff } from './list-diff';
import type { ListEntry, ListIssue } from './list-entry';

export interface ListVersion {
  id: number;
  list: string;
  source: string;
  issueDate: string;
  sha256: string;
  entryCount: number;
  added: number;
  removed: number;
  changed: number;
  forced: boolean;
  loadedAt: Date;
  supersededAt: Date | null;
}

interface VersionRow {
  id: string;
  list: string;
  source: string;
  issue_date: string;
  sha256: string;
  entry_count: number;
  added: number;
  removed: number;
  changed: number;
  forced: boolean;
  loaded_at: Date;
  superseded_at: Date | null;
}

const VERSION_COLUMNS = `id, list, source, to_char(issue_date, 'YYYY-MM-DD') AS issue_date, sha256, entry_count, added,
  removed, changed, forced, loaded_at, superseded_at`;

const toVersion = (r: VersionRow): ListVersion => ({
  id: Number(r.id),
  list: r.list,
  source: r.source,
  issueDate: r.issue_date,
  sha256: r.sha256,
  entryCount: r.entry_count,
  added: r.added,
  removed: r.removed,
  changed: r.changed,
  forced: r.forced,
  loadedAt: r.loaded_at,
  supersededAt: r.superseded_at,
});

interface EntryRow {
  chain: string;
  asset: string | null;
  address: string;
  sdn_uid: string;
  sdn_name: string | null;
  sdn_type: string | null;
  programs: string[];
  designated: string | null;
}

const toEntry = (r: EntryRow): ListEntry => ({
  chain: r.chain,
  asset: r.asset,
  address: r.address,
  sdnUid: r.sdn_uid,
  sdnName: r.sdn_name,
  sdnType: r.sdn_type,
  programs: r.programs,
  designated: r.designated,
});

const ENTRY_COLUMNS = `chain, asset, address, sdn_uid, sdn_name, sdn_type, programs,
  to_char(designated, 'YYYY-MM-DD') AS designated`;

/** An entry as a list version recorded it, with when it was listed and (if so) delisted. */
export interface Listing extends ListEntry {
  listedOn: string;
  listedVersion: number;
  delistedOn: string | null;
  delistedVersion: number | null;
}

/** Rows go in batches of this many per INSERT (a whole OFAC issue holds about 1,000 addresses). */
const BATCH = 500;

async function insertEntries(
  client: PoolClient,
  list: string,
  versionId: number,
  rows: (ListEntry & { listedOn: string; delistedOn?: string })[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    await client.query(
      `INSERT INTO sanction_entries (list, chain, asset, address, sdn_uid, sdn_name, sdn_type, programs, designated,
         listed_version, listed_on, delisted_version, delisted_on)
       SELECT $1, e.chain, e.asset, e.address, e.sdn_uid, e.sdn_name, e.sdn_type,
              ARRAY(SELECT jsonb_array_elements_text(e.programs)), e.designated::date, $2, e.listed_on::date,
              CASE WHEN e.delisted_on IS NULL THEN NULL ELSE $2::bigint END, e.delisted_on::date
       FROM jsonb_to_recordset($3::jsonb) AS e(chain text, asset text, address text, sdn_uid text, sdn_name text,
              sdn_type text, programs jsonb, designated text, listed_on text, delisted_on text)`,
      [
        list,
        versionId,
        JSON.stringify(
          batch.map((e) => ({
            chain: e.chain,
            asset: e.asset,
            address: e.address,
            sdn_uid: e.sdnUid,
            sdn_name: e.sdnName,
            sdn_type: e.sdnType,
            programs: e.programs,
            designated: e.designated,
            listed_on: e.listedOn,
            delisted_on: e.delistedOn ?? null,
          })),
        ),
      ],
    );
  }
}

async function insertChanges(client: PoolClient, versionId: number, diff: ListDiff): Promise<void> {
  const changes = [
    ...diff.added.map((e) => ({ change: 'added', e, before: null, after: e })),
    ...diff.removed.map((e) => ({ change: 'removed', e, before: e, after: null })),
    ...diff.changed.map((c) => ({ change: 'changed', e: c.after, before: c.before, after: c.after })),
  ];
  for (let i = 0; i < changes.length; i += BATCH) {
    const batch = changes.slice(i, i + BATCH);
    await client.query(
      `INSERT INTO list_changes (version_id, change, chain, address, sdn_uid, before, after)
       SELECT $1, c.change, c.chain, c.address, c.sdn_uid, c.before, c.after
       FROM jsonb_to_recordset($2::jsonb) AS c(change text, chain text, address text, sdn_uid text, before jsonb,
              after jsonb)`,
      [
        versionId,
        JSON.stringify(
          batch.map((c) => ({
            change: c.change,
            chain: c.e.chain,
            address: c.e.address,
            sdn_uid: c.e.sdnUid,
            before: c.before,
            after: c.after,
          })),
        ),
      ],
    );
  }
}

/** Sanctions list versions and their entries (migration 018). Writes run inside the caller's transaction. */
export function createListStore(pool: Pool) {
  return {
    async activeVersion(list: string, client: Pool | PoolClient = pool): Promise<ListVersion | null> {
      const { rows } = await client.query<VersionRow>(
        `SELECT ${VERSION_COLUMNS} FROM list_versions WHERE list = $1 AND superseded_at IS NULL`,
        [list],
      );
      return rows[0] ? toVersion(rows[0]) : null;
    },

    async versionBySha(list: string, sha256: string, client: Pool | PoolClient = pool): Promise<ListVersion | null> {
      const { rows } = await client.query<VersionRow>(
        `SELECT ${VERSION_COLUMNS} FROM list_versions WHERE list = $1 AND sha256 = $2 ORDER BY id DESC LIMIT 1`,
        [list, sha256],
      );
      return rows[0] ? toVersion(rows[0]) : null;
    },

    async versions(list: string, limit = 20): Promise<ListVersion[]> {
      const { rows } = await pool.query<VersionRow>(
        `SELECT ${VERSION_COLUMNS} FROM list_versions WHERE list = $1 ORDER BY id DESC LIMIT $2`,
        [list, limit],
      );
      return rows.map(toVersion);
    },

    async currentEntries(list: string, client: PoolClient): Promise<ListEntry[]> {
      const { rows } = await client.query<EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM sanction_entries WHERE list = $1 AND delisted_version IS NULL`,
        [list],
      );
      return rows.map(toEntry);
    },

    /**
     * Records `issue` as the new active version with its diff against the current entries: added entries
     * listed, removed ones delisted on the issue date, changed ones updated, every change kept in list_changes.
     */
    async applyVersion(
      client: PoolClient,
      issue: ListIssue,
      diff: ListDiff,
      options: { forced: boolean },
    ): Promise<ListVersion> {
      await client.query('UPDATE list_versions SET superseded_at = now() WHERE list = $1 AND superseded_at IS NULL', [
        issue.list,
      ]);
      const { rows } = await client.query<VersionRow>(
        `INSERT INTO list_versions (list, source, issue_date, sha256, entry_count, added, removed, changed, forced)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${VERSION_COLUMNS}`,
        [
          issue.list,
          issue.source,
          issue.issueDate,
          issue.sha256,
          issue.entries.length,
          diff.added.length,
          diff.removed.length,
          diff.changed.length,
          options.forced,
        ],
      );
      const version = toVersion(rows[0]!);
      const listedOn = (e: ListEntry) => issue.listedOn?.get(`${e.chain}\u0000${e.address}`) ?? issue.issueDate;
      await insertEntries(
        client,
        issue.list,
        version.id,
        diff.added.map((e) => ({ ...e, listedOn: listedOn(e) })),
      );
      if (issue.delisted?.length) await insertEntries(client, issue.list, version.id, issue.delisted);
      if (diff.removed.length > 0) {
        await client.query(
          `UPDATE sanction_entries s SET delisted_version = $2, delisted_on = $3::date
           FROM jsonb_to_recordset($4::jsonb) AS r(chain text, address text, sdn_uid text)
           WHERE s.list = $1 AND s.delisted_version IS NULL
             AND s.chain = r.chain AND s.address = r.address AND s.sdn_uid = r.sdn_uid`,
          [
            issue.list,
            version.id,
            issue.issueDate,
            JSON.stringify(diff.removed.map((e) => ({ chain: e.chain, address: e.address, sdn_uid: e.sdnUid }))),
          ],
        );
      }
      for (const { after } of diff.changed) {
        await client.query(
          `UPDATE sanction_entries SET asset = $5, sdn_name = $6, sdn_type = $7, programs = $8, designated = $9::date
           WHERE list = $1 AND chain = $2 AND address = $3 AND sdn_uid = $4 AND delisted_version IS NULL`,
          [
            issue.list,
            after.chain,
            after.address,
            after.sdnUid,
            after.asset,
            after.sdnName,
            after.sdnType,
            after.programs,
            after.designated,
          ],
        );
      }
      await insertChanges(client, version.id, diff);
      return version;
    },

    /** Every entry an address ever had on the list, with when it was listed and delisted. */
    async listingsOf(list: string, address: string, chains: readonly string[] | null): Promise<Listing[]> {
      const { rows } = await pool.query<
        EntryRow & { listed_on: string; listed_version: string; delisted_on: string | null; delisted_version: string }
      >(
        `SELECT ${ENTRY_COLUMNS}, to_char(listed_on, 'YYYY-MM-DD') AS listed_on, listed_version,
                to_char(delisted_on, 'YYYY-MM-DD') AS delisted_on, delisted_version
         FROM sanction_entries WHERE list = $1 AND address = $2 AND ($3::text[] IS NULL OR chain = ANY($3))
         ORDER BY listed_on, id`,
        [list, address, chains],
      );
      return rows.map((r) => ({
        ...toEntry(r),
        listedOn: r.listed_on,
        listedVersion: Number(r.listed_version),
        delistedOn: r.delisted_on,
        delistedVersion: r.delisted_version === null ? null : Number(r.delisted_version),
      }));
    },

    /** Every address a version's diff added, removed or changed (the monitors watching them re-screen). */
    async changedAddresses(versionId: number): Promise<string[]> {
      const { rows } = await pool.query<{ address: string }>(
        'SELECT DISTINCT address FROM list_changes WHERE version_id = $1',
        [versionId],
      );
      return rows.map((r) => r.address);
    },

    /** What the last version changed, for GET /api/v1/lists (a sample; the counts are on the version). */
    async changesOf(versionId: number, limit = 50) {
      const { rows } = await pool.query<{ change: string; chain: string; address: string; sdn_uid: string }>(
        `SELECT change, chain, address, sdn_uid FROM list_changes WHERE version_id = $1
         ORDER BY change, chain, address LIMIT $2`,
        [versionId, limit],
      );
      return rows.map((r) => ({ change: r.change, chain: r.chain, address: r.address, sdnUid: r.sdn_uid }));
    },
  };
}

export type ListStore = ReturnType<typeof createListStore>;
