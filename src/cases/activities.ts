import { activityInfo } from '@temporalio/activity';
import type { Pool } from 'pg';
import { createCaseStore } from './case-store';
import type { CaseSettings } from './case-settings';
import type { CaseWorkflowClient } from './case-workflow-client';
import type { ActorRole } from './domain/case-model';
import { CaseWorkflowNotAuthenticError, NotACaseMemberError } from './errors';
import { openCaseForAlert, type OpenCaseOutcome } from './open-case';
import { caseWorkflowId } from './workflow-ids';
import type { CaseWorkflowInput, LoadedCase, PendingTrailEntry } from './workflow-types';
import type { CustomLabelStore } from '../custom-labels';
import type { MemberRoleLookup } from '../identity';
import { createMonitorStore } from '../monitors';
import { toApplicationFailure } from '../platform/errors/temporal-failures';
import type { Logger } from '../platform/logging/logger';
import type { EvidenceSigner } from '../platform/signing/evidence-signer';
import type { JobStore } from '../screening';

export interface CaseActivityDeps {
  pool: Pool;
  jobs: Pick<JobStore, 'findForUser'>;
  customLabels: Pick<CustomLabelStore, 'create'>;
  memberRole: MemberRoleLookup;
  caseSigner: EvidenceSigner;
  /** Absent only where no job runs (a test's bare activities): then an alert cannot reach a case and fails. */
  caseWorkflows?: Pick<CaseWorkflowClient, 'alert'>;
  caseSettings: CaseSettings;
  /** MAX_CUSTOM_LABELS_PER_ACCOUNT: a true positive's blocklist entry counts against it. */
  maxCustomLabels: number;
  log?: Logger;
}

async function coded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw toApplicationFailure(err);
  }
}

/**
 * Case activities: thin adapters over src/cases. The case workflow's first checks that its own workflow id and input
 * name a stored case of that account; its action is recorded only for an active member, with the role they hold
 * now (not the one the update claims).
 */
export function createCaseActivities(deps: CaseActivityDeps) {
  const cases = createCaseStore(deps.pool);
  const monitors = createMonitorStore(deps.pool);
  const openDeps = {
    cases,
    workflows: deps.caseWorkflows ?? {
      alert: () => Promise.reject(new Error('this worker was built without a Temporal client for case workflows')),
    },
    maxOpenCases: deps.caseSettings.maxOpenCases,
    log: deps.log,
  };

  const openForJob = async (
    accountId: string,
    requestId: string,
    source: 'job' | 'monitor',
    alertKey: string,
  ): Promise<OpenCaseOutcome> => {
    const job = await deps.jobs.findForUser(requestId, accountId);
    if (job?.status !== 'completed') return { outcome: 'none', caseId: null };
    return openCaseForAlert(openDeps, {
      accountId,
      source,
      alertKey,
      requestId,
      answer: job,
      always: source === 'monitor',
    });
  };

  return {
    /** The case a run starts from. Fails CASE_WORKFLOW_NOT_AUTHENTIC for an id or input that names no such case. */
    async loadCase(input: CaseWorkflowInput): Promise<LoadedCase> {
      return coded(async () => {
        if (activityInfo().workflowExecution?.workflowId !== caseWorkflowId(input.caseId))
          throw new CaseWorkflowNotAuthenticError(`the workflow is not ${caseWorkflowId(input.caseId)}`);
        const row = await cases.load(input.caseId, input.accountId);
        if (!row) throw new CaseWorkflowNotAuthenticError(`no case ${input.caseId} of account ${input.accountId}`);
        return {
          snapshot: row.snapshot,
          trailLength: row.trailLength,
          slaSince: row.slaSince.toISOString(),
          sla: await cases.slas(input.accountId, deps.caseSettings.slaDefaults),
          appliedUpdateIds: await cases.appliedUpdateIds(input.caseId),
        };
      });
    },

    /** The member's role in the case's account now; CASE_ACTION_FORBIDDEN when they are not an active member. */
    async confirmActor(input: CaseWorkflowInput & { memberId: string }): Promise<{ role: ActorRole }> {
      return coded(async () => {
        const role = await deps.memberRole(input.accountId, input.memberId);
        if (!role) throw new NotACaseMemberError();
        return { role };
      });
    },

    /**
     * Writes the workflow's trail entries and the mirror in one transaction (idempotent by case and seq), then, for
     * a true positive, the subject's blocklist entry in the account's own lists (idempotent: an existing label is
     * answered as it is), so a retry after a lost answer completes what the first attempt began.
     */
    async appendCaseEntries(input: CaseWorkflowInput & { entries: PendingTrailEntry[] }): Promise<number> {
      const result = await cases.appendEntries(input.caseId, input.accountId, input.entries, deps.caseSigner, {
        suppressFalsePositiveDays: deps.caseSettings.suppressFalsePositiveDays,
      });
      if (input.entries.some((e) => e.closing?.disposition === 'true_positive')) {
        const row = await cases.load(input.caseId, input.accountId);
        if (row?.subjectKind === 'address') {
          await deps.customLabels
            .create(
              {
                userId: input.accountId,
                chain: row.chain,
                address: row.subject,
                category: await cases.blocklistCategory(input.caseId),
                name: `case ${input.caseId}`,
                note: 'true positive: blocklisted by the case decision',
              },
              deps.maxCustomLabels,
            )
            .catch((err: unknown) => deps.log?.warn('true positive not blocklisted', { caseId: input.caseId, err }));
        }
      }
      return result.written;
    },

    /** A completed job whose verdict is review or block (or a KYT with sanctioned exposure) opens or joins a case. */
    async openCaseForJob(input: { requestId: string; userId: string }): Promise<OpenCaseOutcome> {
      return coded(() => openForJob(input.userId, input.requestId, 'job', `job:${input.requestId}`));
    },

    /** A monitor's risk_changed alert opens or joins its address's case, whatever the level. */
    async openCaseForMonitorAlert(input: { monitorId: string; requestId: string }): Promise<OpenCaseOutcome> {
      return coded(async () => {
        const monitor = await monitors.find(input.monitorId);
        if (!monitor) return { outcome: 'none', caseId: null };
        return openForJob(monitor.userId, input.requestId, 'monitor', `monitor:${input.monitorId}:${input.requestId}`);
      });
    },
  };
}

export type CaseActivities = ReturnType<typeof createCaseActivities>;
