import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { createMemberRoleLookup } from '../identity';
import type { PlatformConfig } from '../platform/config/platform-config';
import type { CasesConfig } from './config';
import type { EvidenceSigner } from '../platform/signing/evidence-signer';
import { createJobStore } from '../screening';
import { createCaseFileMaker } from './case-file/case-file';
import { createJobAnswerSigner } from './case-file/signed-answers';
import { createTrailWindowReader } from './case-file/trail-window';
import { createCaseQueries } from './case-queries';
import { caseSettings } from './case-settings';
import { createCaseStore } from './case-store';
import { createCaseWorkflowClient } from './case-workflow-client';
import type { CasesRouterDeps } from './cases-routes';
import { createRescoreAlerts } from './rescore-alerts';
import type { Logger } from '../platform/logging/logger';

/** A rescore's case alert, over the api's pool and Temporal client (src/screening/rescore/rescore-route.ts). */
export function rescoreCaseAlerts(
  pool: Pool,
  temporal: Client,
  config: Pick<PlatformConfig, 'TEMPORAL_TASK_QUEUE'> & Pick<CasesConfig, 'MAX_OPEN_CASES_PER_ACCOUNT'>,
  log: Logger,
) {
  return createRescoreAlerts({
    cases: createCaseStore(pool),
    workflows: createCaseWorkflowClient({ temporal, taskQueue: config.TEMPORAL_TASK_QUEUE }),
    maxOpenCases: config.MAX_OPEN_CASES_PER_ACCOUNT,
    jobs: createJobStore(pool),
    log,
  });
}

/**
 * What the cases routes need, built over the api's pool and Temporal client; `evidenceSigner` signs the answers a
 * case file prints exactly as their polls do.
 */
export function casesRouterDeps(
  pool: Pool,
  temporal: Client,
  config: Pick<PlatformConfig, 'TEMPORAL_TASK_QUEUE'> &
    Pick<CasesConfig, 'MAX_OPEN_CASES_PER_ACCOUNT' | 'CASE_SLA_SECONDS' | 'CASE_FALSE_POSITIVE_SUPPRESSION_DAYS'>,
  evidenceSigner: EvidenceSigner,
): CasesRouterDeps {
  const store = createCaseStore(pool);
  const defaults = caseSettings(config).slaDefaults;
  const caseQueries = createCaseQueries(pool);
  const jobs = createJobStore(pool);
  return {
    caseQueries,
    caseWorkflows: createCaseWorkflowClient({ temporal, taskQueue: config.TEMPORAL_TASK_QUEUE }),
    memberRole: createMemberRoleLookup(pool),
    jobs,
    slaOf: (accountId) => store.slas(accountId, defaults),
    caseFile: createCaseFileMaker({
      caseQueries,
      jobs,
      trailWindow: createTrailWindowReader(pool),
      signAnswers: createJobAnswerSigner(evidenceSigner),
    }),
  };
}
