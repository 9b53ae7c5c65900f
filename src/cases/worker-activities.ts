import { createCustomLabelStore, type CustomLabelsConfig } from '../custom-labels';
import { createMemberRoleLookup } from '../identity';
import type { PlatformConfig } from '../platform/config/platform-config';
import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { evidenceKeyRing } from '../platform/signing/evidence-key-ring';
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
  const config = runtime.config as CasesConfig & CustomLabelsConfig & Pick<PlatformConfig, 'EVIDENCE_SIGNING_KEYS'>;
  const { pool } = runtime;
  return createCaseActivities({
    pool,
    log: runtime.log,
    jobs: createJobStore(pool),
    customLabels: createCustomLabelStore(pool),
    memberRole: createMemberRoleLookup(pool),
    caseSigner: createEvidenceSigner(evidenceKeyRing(config.EVIDENCE_SIGNING_KEYS, pool)),
    caseWorkflows: createCaseWorkflowClient({ temporal: runtime.temporal, taskQueue: runtime.taskQueue }),
    caseSettings: caseSettings(config),
    maxCustomLabels: config.MAX_CUSTOM_LABELS_PER_ACCOUNT,
  });
}
