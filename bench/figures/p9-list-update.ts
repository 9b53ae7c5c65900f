import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { createListStore, type ListVersion } from '../../src/lists/list-store';
import { inTransaction } from '../../src/platform/db/transaction';
import type { Target } from './p9-monitor-fleet';

/**
 * A new active OFAC version whose diff marks `targets` changed, written as applyListIssue writes one (the active
 * version superseded, the new one with its counts, one list_changes row per entry) but without an issue to parse:
 * the entries themselves stay as they are, so every other answer of the stack is unchanged. The notice reads only
 * the changed addresses; before and after are the entry as it stands.
 */
export async function insertTouchingVersion(pool: Pool, targets: Target[]): Promise<ListVersion> {
  await inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ issue_date: string; entry_count: number }>(
      `UPDATE list_versions SET superseded_at = now() WHERE list = 'ofac' AND superseded_at IS NULL
       RETURNING to_char(issue_date, 'YYYY-MM-DD') AS issue_date, entry_count`,
    );
    const active = rows[0];
    if (!active) throw new Error('no active OFAC version to change');
    const sha256 = createHash('sha256').update(`bench P9 ${Date.now()} ${process.pid}`).digest('hex');
    const inserted = await client.query<{ id: string }>(
      `INSERT INTO list_versions (list, source, issue_date, sha256, entry_count, added, removed, changed)
       VALUES ('ofac', 'bench P9', $1, $2, $3, 0, 0, $4) RETURNING id`,
      [active.issue_date, sha256, active.entry_count, targets.length],
    );
    await client.query(
      `INSERT INTO list_changes (version_id, change, chain, address, sdn_uid, before, after)
       SELECT $1, 'changed', e.chain, e.address, e.sdn_uid, e.entry, e.entry
       FROM (SELECT DISTINCT ON (s.chain, s.address) s.chain, s.address, s.sdn_uid,
               jsonb_build_object('chain', s.chain, 'asset', s.asset, 'address', s.address, 'sdnUid', s.sdn_uid,
                 'sdnName', s.sdn_name, 'sdnType', s.sdn_type, 'programs', to_jsonb(s.programs),
                 'designated', to_char(s.designated, 'YYYY-MM-DD')) AS entry
             FROM sanction_entries s
             JOIN unnest($2::text[], $3::text[]) AS t(chain, address) ON t.chain = s.chain AND t.address = s.address
             WHERE s.list = 'ofac' AND s.delisted_version IS NULL
             ORDER BY s.chain, s.address, s.sdn_uid) AS e`,
      [inserted.rows[0]?.id, targets.map((t) => t.chain), targets.map((t) => t.address)],
    );
  });
  const version = await createListStore(pool).activeVersion('ofac');
  if (!version) throw new Error('the new version is not active');
  return version;
}
