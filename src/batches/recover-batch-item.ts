import type { CreditStore } from '../billing';
import type { Logger } from '../platform/logging/logger';
import type { JobStore, ScreeningWorkflowStarter } from '../screening';
import type { BatchItemState } from './workflow-types';
import { applyFinalMirrorWrite, releaseAndFailJob, SCREENING_ERRORS } from '../screening';

export interface RecoverBatchItemDeps {
  jobs: Pick<JobStore, 'findForUser' | 'applyUpdate' | 'markNotStarted'>;
  credits: Pick<CreditStore, 'releaseHold' | 'findTransaction'>;
  starter: Pick<ScreeningWorkflowStarter, 'status' | 'lastMirrorWrite'>;
  log?: Logger;
  /** Counts a job it finished, as the worker counts every final mirror write (each job ends counted once). */
  metrics?: {
    jobFinished(job: {
      apiType: string;
      chain: string;
      status: 'completed' | 'failed';
      errorCode: string | null;
      seconds: number;
    }): void;
  };
}

/**
 * Recovers an item whose job the batch workflow could not follow as its child: its start found the job's workflow
 * already there (an earlier run of the batch started it before it was restarted), or the child ended without a
 * result (terminated, timed out). Not a settle: the job's own workflow settles it (charge, history entry, mirror
 * write); this only finds out how that went and finishes what it left, as the queued-job sweeper recovers a single
 * job. Its state is read from the job's mirror and its workflow: running → 'running' (asked again later);
 * completed → the mirror write its workflow history scheduled is applied; ended without a result → its hold
 * released and the job failed with what the ledger shows charged under its charge key. Idempotent in every order:
 * a release twice gives back nothing, the mirror writes are seq-guarded, and the job fails only while still queued.
 */
export async function recoverBatchItem(
  deps: RecoverBatchItemDeps,
  item: { requestId: string; userId: string },
): Promise<BatchItemState> {
  const job = await deps.jobs.findForUser(item.requestId, item.userId);
  if (job?.status !== 'queued') return 'finished';
  const status = await deps.starter.status(item.requestId);
  if (status === 'RUNNING') return 'running';
  if (status === 'COMPLETED') {
    const update = await deps.starter.lastMirrorWrite(item.requestId);
    if (update) {
      await applyFinalMirrorWrite(deps, update);
      const after = await deps.jobs.findForUser(item.requestId, item.userId);
      if (after?.status !== 'queued') return 'finished';
    }
  }
  const { charged } = await releaseAndFailJob(
    deps,
    { ...job, ageMs: Date.now() - job.createdAt.getTime() },
    {
      code: SCREENING_ERRORS.JOB_ABORTED.code,
      message:
        `The item's workflow ended without a result (${status ?? 'not found'}); credits held and not spent were ` +
        'released',
    },
  );
  deps.log?.warn('batch item recovered without its result', {
    requestId: item.requestId,
    workflowStatus: status,
    charged,
  });
  return 'finished';
}
