import type { FeatureRuntime } from '../platform/features/feature-runtime';
import type { PlatformConfig } from '../platform/config/platform-config';
import type { ScreeningConfig } from './config';
import { ensureQueuedJobSweeper } from './queued-job-sweeper';

/** The sweeper of jobs left queued without a running workflow (QUEUED_JOB_SWEEP_EVERY_SECONDS; 0 removes it). */
export async function screeningSchedules(runtime: FeatureRuntime): Promise<void> {
  await ensureQueuedJobSweeper(runtime.temporal, runtime.config as PlatformConfig & ScreeningConfig, runtime.log);
}
