import { createCustomLabelStore, type CustomLabelsConfig } from '../custom-labels';
import { createMemberRoleLookup } from '../identity';
import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { createEvidenceSigner } from '../platform/signing/evidence-signer';
import { createJobStore } from '../screening';
import { createCaseActivities } from './activities';
import { caseSettings } from './case-settings';
import { createCaseWorkflowClient } from './case-workflow-client';
import type { CasesConfig } from './config';

/**
 * The case activities over the worker's runtime: the trail is signed with the evidence key as it is written, an
 * action is recorded for an active member only, and an alert reaches its case's workflow through the worker's client.
 */
export function casesActivities(runtime: FeatureRuntime) {
  const config = runtime.config as CasesConfig & CustomLabelsConfig;
  const { pool } = runtime;
  return createCaseActivities({
    pool,
    log: runtime.log,
    jobs: createJobStore(pool),
    customLabels: createCustomLabelStore(pool),
    memberRole: createMemberRoleLookup(pool),
    caseSigner: createEvidenceSigner(runtime.evidenceKeys),
    caseWorkflows: createCaseWorkflowClient({ temporal: runtime.temporal, taskQueue: runtime.taskQueue }),
    caseSettings: caseSettings(config),
    maxCustomLabels: config.MAX_CUSTOM_LABELS_PER_ACCOUNT,
  });
}
