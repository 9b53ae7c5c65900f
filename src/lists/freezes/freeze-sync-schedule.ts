import type { Client, ScheduleOptions } from '@temporalio/client';
import type { PlatformConfig } from '../../platform/config/platform-config';
import type { ListsConfig } from '../config';
import type { Logger } from '../../platform/logging/logger';
import { listRefreshScheduleId } from '../workflow-ids';
import { type FreezeConfig, freezeSources, freezeSyncSettings } from './freeze-settings';
import type { FreezeSyncInput } from './freeze-sync-types';
import { upsertSchedule } from '../../platform/temporal/upsert-schedule';

type ScheduleConfig = FreezeConfig &
  Pick<PlatformConfig, 'TEMPORAL_TASK_QUEUE'> &
  Pick<ListsConfig, 'FREEZES_SYNC_EVERY_MINUTES'>;

/**
 * Creates (or brings up to date with this process's config) the schedule `lists-refresh:freezes`, which runs
 * freezeSyncWorkflow every FREEZES_SYNC_EVERY_MINUTES over the chains this worker has a node for (each EVM
 * network's endpoint where an issuer contract is read, TRON_API_URL). A schedule, as for OFAC: operators see, pause
 * and trigger it in the Temporal UI, and a run still going when the next is due is not doubled. Deleted when the
 * interval is 0 or no chain is configured.
 */
export async function ensureFreezeSync(client: Client, config: ScheduleConfig, log: Logger): Promise<string | null> {
  const scheduleId = listRefreshScheduleId('freezes');
  const handle = client.schedule.getHandle(scheduleId);
  const sources = freezeSources(freezeSyncSettings(config));
  if (config.FREEZES_SYNC_EVERY_MINUTES === 0 || sources.length === 0) {
    await handle.delete().catch(() => undefined);
    log.info('stablecoin freeze sync off', {
      scheduleId,
      reason:
        sources.length === 0
          ? 'no EVM endpoint with an issuer contract (ETHEREUM_RPC_URL, BASE_RPC_URL…) nor TRON_API_URL'
          : 'FREEZES_SYNC_EVERY_MINUTES=0',
    });
    return null;
  }
  // Contracts, node URLs and keys stay in the worker's config: the input names the chains only (no secrets in
  // workflow histories).
  const input: FreezeSyncInput = { sources };
  const schedule: ScheduleOptions = {
    scheduleId,
    spec: { intervals: [{ every: `${config.FREEZES_SYNC_EVERY_MINUTES}m` }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'freezeSyncWorkflow',
      workflowId: scheduleId,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: [input],
    },
    // Missed runs are not made up one by one: the next run reads everything since the cursor anyway.
    policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
  };
  await upsertSchedule(client, schedule);
  log.info('stablecoin freeze sync scheduled', {
    scheduleId,
    everyMinutes: config.FREEZES_SYNC_EVERY_MINUTES,
    sources,
  });
  return scheduleId;
}
