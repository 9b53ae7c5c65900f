import type { Client, ScheduleOptions } from '@temporalio/client';
import type { PlatformConfig } from '../platform/config/platform-config';
import type { ScreeningConfig } from './config';
import type { Logger } from '../platform/logging/logger';
import { queuedJobSweeperScheduleId } from './workflow-ids';
import { upsertSchedule } from '../platform/temporal/upsert-schedule';

type SweeperConfig = Pick<PlatformConfig, 'TEMPORAL_TASK_QUEUE'> &
  Pick<ScreeningConfig, 'QUEUED_JOB_SWEEP_EVERY_SECONDS'>;

/** What one queued-job sweep looks at and when it gives up on a job: this worker's config, never a workflow input. */
export interface QueuedJobSweepThresholds {
  restartAfterMs: number;
  abandonAfterMs: number;
  /** Jobs per sweep, oldest first; the next sweep takes the rest. */
  limit: number;
  /** For the inputs of restarted jobs (the original value is not stored with the job). */
  heartbeatTimeoutMs: number;
}

export function queuedJobSweepThresholds(
  config: Pick<
    ScreeningConfig,
    'ANALYSIS_HEARTBEAT_TIMEOUT_MS' | 'QUEUED_JOB_RESTART_AFTER_SECONDS' | 'QUEUED_JOB_ABANDON_AFTER_SECONDS'
  >,
): QueuedJobSweepThresholds {
  return {
    restartAfterMs: config.QUEUED_JOB_RESTART_AFTER_SECONDS * 1000,
    abandonAfterMs: config.QUEUED_JOB_ABANDON_AFTER_SECONDS * 1000,
    limit: 500,
    heartbeatTimeoutMs: config.ANALYSIS_HEARTBEAT_TIMEOUT_MS,
  };
}

/**
 * Creates (or brings up to date with this process's config) the Temporal schedule that runs the
 * queued-job sweeper. A schedule rather than a loop in a workflow: operators see, pause and trigger it in
 * the Temporal UI (Schedules), and overlapping sweeps are skipped. Every worker calls this at start.
 */
export async function ensureQueuedJobSweeper(
  client: Client,
  config: SweeperConfig,
  log: Logger,
): Promise<string | null> {
  const scheduleId = queuedJobSweeperScheduleId(config.TEMPORAL_TASK_QUEUE);
  if (config.QUEUED_JOB_SWEEP_EVERY_SECONDS === 0) {
    log.info('queued-job sweeper schedule not created (QUEUED_JOB_SWEEP_EVERY_SECONDS=0)', { scheduleId });
    return null;
  }
  const options: ScheduleOptions = {
    scheduleId,
    spec: { intervals: [{ every: `${config.QUEUED_JOB_SWEEP_EVERY_SECONDS}s` }] },
    action: {
      type: 'startWorkflow',
      workflowType: 'queuedJobSweeperWorkflow',
      workflowId: scheduleId,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      // No arguments: the sweep reads its thresholds from the config of the worker that runs it.
      args: [],
    },
    policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
  };
  await upsertSchedule(client, options);
  log.info('queued-job sweeper scheduled', { scheduleId, everySeconds: config.QUEUED_JOB_SWEEP_EVERY_SECONDS });
  return scheduleId;
}
