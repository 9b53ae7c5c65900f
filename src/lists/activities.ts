import { cancellationSignal, heartbeat } from '@temporalio/activity';
import type { Pool } from 'pg';
import { type FreezeSource, type FreezeSyncResult, type FreezeSyncSettings, syncFreezes } from './freezes';
import { createListStore } from './list-store';
import { refreshOfacList } from './refresh-list';
import { checkRefreshInput, type ListRefreshSources } from './refresh-sources';
import type { ListRefreshInput, ListRefreshResult } from './workflow-types';
import { toApplicationFailure } from '../platform/errors/temporal-failures';
import type { Logger } from '../platform/logging/logger';

export interface ListActivityDeps {
  pool: Pool;
  log?: Logger;
  /** Where the stablecoin freeze sync reads (freezeSyncSettings(config)); without it the sync has no chain. */
  freezeSync?: FreezeSyncSettings;
  /** Where a list refresh may read (listRefreshSources(config)); without it every refresh input is refused. */
  listSources?: ListRefreshSources;
}

/** Sanctions list activities: thin adapters over src/lists. */
export function createListActivities(deps: ListActivityDeps) {
  const lists = createListStore(deps.pool);
  return {
    /**
     * Reads only what the worker's config allows (checkRefreshInput: the input may have been forged by whoever
     * reaches the Temporal frontend) and never forces. Idempotency: a version is keyed by the issue's sha256;
     * applying the same bytes again is a no-op, and the diff is applied in one transaction under a lock, so a retry
     * after the commit changes nothing.
     */
    async refreshSanctionsList(input: ListRefreshInput): Promise<ListRefreshResult> {
      const beat = setInterval(() => heartbeat(), 10_000);
      try {
        const source = await checkRefreshInput(deps.listSources, input);
        const outcome = await refreshOfacList(
          { pool: deps.pool, lists, log: deps.log },
          { list: 'ofac', source },
          cancellationSignal(),
        );
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

    /**
     * Idempotency: each window's events are upserted only when newer than their row, and commit with the cursor
     * move, so a retry re-reads at most the window it was in and changes nothing twice.
     */
    async syncStablecoinFreezes(input: { source: FreezeSource }): Promise<FreezeSyncResult> {
      const beat = setInterval(() => heartbeat(), 10_000);
      try {
        return await syncFreezes(
          {
            pool: deps.pool,
            settings: deps.freezeSync ?? { evm: {}, tron: null },
            log: deps.log,
            signal: cancellationSignal(),
            progress: () => heartbeat(),
          },
          input.source,
        );
      } catch (err) {
        throw toApplicationFailure(err);
      } finally {
        clearInterval(beat);
      }
    },
  };
}

export type ListActivities = ReturnType<typeof createListActivities>;
