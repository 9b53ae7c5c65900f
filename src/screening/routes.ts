import { Router } from 'express';
import { createCreditStore, createSubscriptionStore } from '../billing';
import type { FeatureApiRuntime, FeatureRoutes } from '../platform/features/feature-runtime';
import { createEvidenceSigner } from '../platform/signing/evidence-signer';
import { createPolicyStore } from '../policies';
import type { ScreeningConfig } from './config';
import { configuredCapabilities } from './configured-capabilities';
import { shippedRiskModel } from './engine/risk-model';
import { createJobService } from './job-service';
import { createJobStore } from './jobs-store';
import { createJobSubmitLimit } from './job-submit-limit';
import { jobSubmitMetrics } from './metrics/job-submit-metrics';
import { createRescorer } from './rescore/rescore-job';
import { createRescoreRouter } from './rescore/rescore-route';
import { createScreeningJobsRouter } from './screening-jobs-routes';
import { createScreeningWorkflowStarter } from './screening-workflow-starter';
import { createSyncAnalyzeRouter } from './sync-analyze-route';

/**
 * Screening's routes under /api/v1: jobs (submit, poll, pricing), the deprecated synchronous analyze, and a stored
 * answer's rescore (its case alert goes to the cases feature through the `rescored` port).
 */
export function screeningRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  const config = runtime.config as ScreeningConfig;
  const { pool, temporal, log } = runtime;
  const jobs = createJobStore(pool);
  const credits = createCreditStore(pool);
  const policies = createPolicyStore(pool);
  const capabilities = configuredCapabilities(config);
  const jobService = createJobService({
    pool,
    credits,
    jobs,
    subscriptions: createSubscriptionStore(pool),
    policies,
    capabilities,
    temporal,
    starter: createScreeningWorkflowStarter({ temporal, taskQueue: runtime.taskQueue }),
    heartbeatTimeoutMs: config.ANALYSIS_HEARTBEAT_TIMEOUT_MS,
    metrics: jobSubmitMetrics(runtime.metrics),
    log,
  });
  const deps = {
    jobService,
    jobs,
    capabilities,
    config,
    evidenceSigner: createEvidenceSigner(runtime.evidenceKeys),
    // Counts in Postgres: the monitors' creates spend from the same per-account budget.
    limitSubmits: createJobSubmitLimit({ pool, perMinute: config.JOB_SUBMIT_LIMIT_PER_MINUTE }),
  };
  const v1 = Router();
  v1.use(createScreeningJobsRouter(deps));
  v1.use(createSyncAnalyzeRouter({ ...deps, waitMs: config.SYNC_ANALYZE_WAIT_MS }));
  v1.use(
    createRescoreRouter({
      rescore: createRescorer({ pool, jobs, credits, policies, model: shippedRiskModel() }),
      onRescored: (accountId, view) => runtime.ports.rescored(accountId, view),
    }),
  );
  return { v1 };
}
