import path from 'node:path';
import { screeningRoutes } from './routes';
import { prepareScreening } from './prepare';
import { chainCapabilities } from './chains/chain-capabilities';
import type { ScreeningConfig } from './config';
import type { FeatureModule } from '../platform/features/feature-module';
import { SCREENING_ERRORS } from './error-codes';
import { screeningConfigSlice } from './config';
import { screeningOpenApi } from './openapi';
import { screeningSchedules } from './schedules';
import { screeningActivities } from './worker-activities';

/** What the screening feature declares to the composition root (src/platform/features/feature-module.ts). */
export const screeningModule = {
  name: 'screening',
  workflows: path.join(__dirname, 'workflows.ts'),
  errors: SCREENING_ERRORS,
  config: screeningConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
  prepare: prepareScreening,
  openapi: screeningOpenApi,
  routes: screeningRoutes,
  // What the capabilities route lists of the chains (src/market/ports.ts).
  provides: (runtime) => ({
    chainCapabilities: () => chainCapabilities(runtime.config as ScreeningConfig),
  }),
  activities: screeningActivities,
  schedules: screeningSchedules,
  metrics: [
    'chainscreen_jobs_submitted_total',
    'chainscreen_jobs_completed_total',
    'chainscreen_jobs_failed_total',
    'chainscreen_job_duration_seconds',
    'chainscreen_chain_requests_total',
    'chainscreen_chain_request_errors_total',
    'chainscreen_crawl_truncations_total',
  ],
  socketEvents: [
    {
      name: 'job_status_changed',
      description:
        "A job's status moved: `{request_id, status, reference_id, api_type, chain, risk_level, risk_score, " +
        'error_code, updated_at}`',
    },
  ],
} satisfies FeatureModule;
