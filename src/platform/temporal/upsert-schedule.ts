import { type Client, ScheduleAlreadyRunning, type ScheduleOptions } from '@temporalio/client';

/**
 * Creates the schedule, or brings an existing one up to date with this process's config (its spec, action and
 * policies; its paused state and notes stay as an operator left them). Every worker calls this at start, so the
 * last started worker's config wins, as it does for the other cluster-wide settings.
 */
export async function upsertSchedule(client: Client, schedule: ScheduleOptions): Promise<void> {
  try {
    await client.schedule.create(schedule);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    await client.schedule.getHandle(schedule.scheduleId).update((previous) => ({
      ...previous,
      spec: schedule.spec,
      action: schedule.action,
      policies: { ...previous.policies, ...schedule.policies },
    }));
  }
}
