import type { Client, ScheduleOptions } from '@temporalio/client';
import type { Pool } from 'pg';
import type { PlatformConfig } from '../platform/config/platform-config';
import type { ListsConfig } from './config';
import { createListStore } from './list-store';
import { isStale } from './lists-routes';
import type { Logger } from '../platform/logging/logger';
import { listRefreshScheduleId } from './workflow-ids';
import type { ListRefreshInput } from './workflow-types';
import { upsertSchedule } from '../platform/temporal/upsert-schedule';

type RefreshConfig = Pick<PlatformConfig, 'TEMPORAL_TASK_QUEUE'> &
  Pick<ListsConfig, 'OFAC_REFRESH_SOURCE' | 'OFAC_REFRESH_EVERY_HOURS'>;

/**
 * Creates (or brings up to date with this process's config) the schedule `lists-refresh:ofac`: a schedule, so
 * operators see, pause and trigger it in the Temporal UI, and overlapping refreshes are skipped.
 * OFAC_REFRESH_EVERY_HOURS=0 deletes it. `triggerNow` starts a run at once (the active version is stale).
 */
export async function ensureOfacRefreshSchedule(
  client: Client,
  config: RefreshConfig,
  log: Logger,
  options: { triggerNow?: boolean } = {},
): Promise<string | null> {
  const scheduleId = listRefreshScheduleId('ofac');
  const handle = client.schedule.getHandle(scheduleId);
  if (config.OFAC_REFRESH_EVERY_HOURS === 0) {
    await handle.delete().catch(() => undefined);
    log.info('OFAC refresh schedule off (OFAC_REFRESH_EVERY_HOURS=0)', { scheduleId });
    return null;
  }
  const input: ListRefreshInput = { list: 'ofac', source: config.OFAC_REFRESH_SOURCE };
  const schedule: ScheduleOptions = {
    scheduleId,
    spec: { intervals: [{ every: `${config.OFAC_REFRESH_EVERY_HOURS}h` }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'listRefreshWorkflow',
      workflowId: scheduleId,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: [input],
    },
    policies: { overlap: 'SKIP', catchupWindow: '1 hour' },
  };
  await upsertSchedule(client, schedule);
  if (options.triggerNow) await handle.trigger();
  log.info('OFAC refresh scheduled', {
    scheduleId,
    everyHours: config.OFAC_REFRESH_EVERY_HOURS,
    source: config.OFAC_REFRESH_SOURCE,
    triggered: Boolean(options.triggerNow),
  });
  return scheduleId;
}

/** Every worker at start: the schedule as configured, and one run at once if the active version is already stale. */
export async function ensureOfacRefresh(
  client: Client,
  pool: Pool,
  config: RefreshConfig & Pick<ListsConfig, 'OFAC_MAX_AGE_DAYS'>,
  log: Logger,
): Promise<string | null> {
  const active = await createListStore(pool).activeVersion('ofac');
  const refresh = {
    enabled: config.OFAC_REFRESH_EVERY_HOURS > 0,
    everyHours: config.OFAC_REFRESH_EVERY_HOURS,
    source: config.OFAC_REFRESH_SOURCE,
    maxAgeDays: config.OFAC_MAX_AGE_DAYS,
  };
  return ensureOfacRefreshSchedule(client, config, log, { triggerNow: isStale(active, refresh, new Date()) });
}
