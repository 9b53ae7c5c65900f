import { cancellationSignal, heartbeat } from '@temporalio/activity';
import type { Pool } from 'pg';
import { createListStore } from '../src/lists/list-store';
import { refreshOfacList } from '../src/lists/refresh-list';
import type { ListRefreshInput, ListRefreshResult } from '../src/lists/workflow-types';
import { toApplicationFailure } from '../src/platform/errors/temporal-failures';
import type { Logger } from '../src/platform/logging/logger';

export interface ListActivityDeps {
  pool: Pool;
  log?: Logger;
}

/** Sanctions list activities: thin adapters over src/lists. */
export function createListActivities(deps: ListActivityDeps) {
  const lists = createListStore(deps.pool);
  return {
    /**
     * Idempotency: a version is keyed by the issue's sha256; applying the same bytes again is a no-op, and the
     * diff is applied in one transaction under a lock, so a retry after the commit changes nothing.
     */
    async refreshSanctionsList(input: ListRefreshInput): Promise<ListRefreshResult> {
      const beat = setInterval(() => heartbeat(), 10_000);
      try {
        const outcome = await refreshOfacList({ pool: deps.pool, lists, log: deps.log }, input, cancellationSignal());
        const diff = outcome.status === 'applied' ? outcome.diff : { added: [], removed: [], changed: [] };
        return {
          status: outcome.status,
          version: outcome.version.id,
          issueDate: outcome.version.issueDate,
          added: diff.added.length,
          removed: diff.removed.length,
          changed: diff.changed.length,
        };
      } catch (err) {
        throw toApplicationFailure(err);
      } finally {
        clearInterval(beat);
      }
    },
  };
}

export type ListActivities = ReturnType<typeof createListActivities>;
