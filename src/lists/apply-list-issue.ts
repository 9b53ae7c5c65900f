import type { Pool } from 'pg';
import { inTransaction } from '../platform/db/transaction';
import { diffEntries, type ListDiff } from './list-diff';
import type { ListIssue } from './list-entry';
import { OlderListIssueError } from './list-errors';
import type { ListStore, ListVersion } from './list-store';

/** Any constant works; it only has to be the same in every process that loads lists. */
const LIST_LOCK_ID = 4_210_404;

export type ApplyOutcome =
  /** The same bytes were loaded before: nothing changed. */
  | { status: 'unchanged'; version: ListVersion }
  | { status: 'applied'; version: ListVersion; previous: ListVersion | null; diff: ListDiff };

/**
 * Makes `issue` the active version of its list, in one transaction under a lock (two loaders never interleave):
 * loading the same bytes again changes nothing; an issue dated before the active one is refused unless forced
 * (it would silently delist what was designated since; a forced load's diff lists what it removed).
 */
export async function applyListIssue(
  deps: { pool: Pool; lists: ListStore },
  issue: ListIssue,
  options: { force?: boolean } = {},
): Promise<ApplyOutcome> {
  return inTransaction(deps.pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [LIST_LOCK_ID]);
    const known = await deps.lists.versionBySha(issue.list, issue.sha256, client);
    const previous = await deps.lists.activeVersion(issue.list, client);
    if (known && previous && known.id === previous.id) return { status: 'unchanged', version: known };
    if (previous && issue.issueDate < previous.issueDate && !options.force) {
      throw new OlderListIssueError(issue.issueDate, previous.issueDate);
    }
    const diff = diffEntries(await deps.lists.currentEntries(issue.list, client), issue.entries);
    const version = await deps.lists.applyVersion(client, issue, diff, { forced: Boolean(options.force) });
    return { status: 'applied', version, previous, diff };
  });
}
