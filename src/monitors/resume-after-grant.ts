import type { Client } from '@temporalio/client';
import type { Logger } from '../platform/logging/logger';
import { errorFields } from '../platform/logging/logger';
import type { MonitorStore } from './monitors-store';
import { monitorWorkflowId } from './workflow-ids';
import { MONITOR_SIGNALS } from './workflow-types';

/**
 * Called for every credits_granted outbox event the api hears: the owner's paused monitors are told to resume (each
 * then re-screens, and pauses again if the grant was not enough). Every api instance hears the event; a second
 * `resume` to a running monitor changes nothing.
 */
export function resumeMonitorsAfterGrant(deps: { monitors: MonitorStore; temporal: Client; log: Logger }) {
  return async (userId: string): Promise<void> => {
    try {
      for (const id of await deps.monitors.pausedForUser(userId)) {
        await deps.temporal.workflow
          .getHandle(monitorWorkflowId(id))
          .signal(MONITOR_SIGNALS.resume)
          .catch(() => undefined);
      }
    } catch (err) {
      deps.log.warn('paused monitors not resumed after a grant', { userId, ...errorFields(err) });
    }
  };
}
