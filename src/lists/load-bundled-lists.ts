import type { Pool } from 'pg';
import type { Logger } from '../platform/logging/logger';
import { applyListIssue } from './apply-list-issue';
import { readBundledOfac } from './bundled-ofac';
import { createListStore } from './list-store';

/**
 * At start: the shipped OFAC list becomes a version once (by its sha256). A shipped file older than the active
 * version (an operator loaded a newer official issue) is left aside, never forced over it.
 */
export async function loadBundledLists(pool: Pool, dataDir: string, log: Logger): Promise<void> {
  const lists = createListStore(pool);
  const issue = await readBundledOfac(dataDir);
  if (await lists.versionBySha(issue.list, issue.sha256)) return;
  const active = await lists.activeVersion(issue.list);
  if (active && issue.issueDate < active.issueDate) {
    log.info('bundled OFAC list is older than the active version; left aside', {
      bundled: issue.issueDate,
      active: active.issueDate,
    });
    return;
  }
  const outcome = await applyListIssue({ pool, lists }, issue);
  if (outcome.status === 'applied') {
    log.info('OFAC list version loaded', {
      source: issue.source,
      issueDate: issue.issueDate,
      entries: issue.entries.length,
      added: outcome.diff.added.length,
      removed: outcome.diff.removed.length,
      changed: outcome.diff.changed.length,
    });
  }
}
