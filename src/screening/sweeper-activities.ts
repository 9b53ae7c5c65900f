import { heartbeat } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { CreditStore } from '../billing';
import type { JobStore, StaleQueuedJob } from './jobs-store';
import type { Logger } from '../platform/logging/logger';
import type { ScreeningWorkerMetrics } from './metrics/ports';
import type { QueuedJobSweepThresholds } from './queued-job-sweeper';
import type { ScreeningWorkflowStarter } from './screening-workflow-starter';
import { httpRequestMemo } from '../platform/temporal/http-request-memo';
import type { JobError, QueuedJobSweepSummary, ScreeningInput } from './workflow-types';
import { SCREENING_ERRORS } from './error-codes';

export interface QueuedJobActivityDeps {
  jobs: JobStore;
  credits: CreditStore;
  /** Needs a Temporal client; a worker built without one cannot sweep (the activity then fails loudly). */
  screeningStarter?: ScreeningWorkflowStarter;
  /** From this worker's config (QUEUED_JOB_*): a sweep's own input is never trusted with them. */
  queuedJobSweep: QueuedJobSweepThresholds;
  log?: Logger;
  metrics?: Pick<ScreeningWorkerMetrics, 'jobFinished'>;
}

const NEVER_STARTED: JobError = {
  code: SCREENING_ERRORS.NOT_STARTED.code,
  message:
    'The job was never scheduled (its api process stopped, or Temporal could not be reached, before it started); ' +
    'the credits held were released and nothing was charged',
};

function abortedError(status: string): JobError {
  return {
    code: SCREENING_ERRORS.JOB_ABORTED.code,
    message: `The job's workflow ended without a result (${status}); credits held and not spent were released`,
  };
}

function inputOf(job: StaleQueuedJob, heartbeatTimeoutMs: number): ScreeningInput {
  const { ageMs: _age, httpRequestId: _httpRequestId, ...fields } = job;
  return { ...fields, heartbeatTimeoutMs };
}

export function createQueuedJobActivities(deps: QueuedJobActivityDeps) {
  /**
   * Idempotent in every order: the hold is released first (a second release returns 0) and the job flips
   * to failed only while still queued, with what the ledger shows charged under the job's charge key.
   */
  async function releaseAndFail(job: StaleQueuedJob, error: JobError): Promise<void> {
    await deps.credits.releaseHold(job.requestId);
    const charge = await deps.credits.findTransaction(`screening:${job.requestId}`);
    const failed = await deps.jobs.markNotStarted(job.requestId, error, charge?.amount ?? 0);
    // Counted like any other failed job, so every submitted job ends counted once as completed or failed.
    if (failed)
      deps.metrics?.jobFinished({
        apiType: job.apiType,
        chain: job.chain,
        status: 'failed',
        errorCode: error.code,
        seconds: job.ageMs / 1000,
      });
    deps.log?.warn('queued job released', {
      requestId: job.requestId,
      code: error.code,
      ageMs: job.ageMs,
      charged: charge?.amount ?? 0,
    });
  }

  /**
   * A workflow that completed while its row stayed queued (its last write never landed, e.g. a submit whose start
   * answered an error although the server had started it): the write its history scheduled is applied now. The
   * write is seq-guarded, so a late landing of the workflow's own write changes nothing. False when the history
   * holds no write to apply (an operator looks).
   */
  async function repairFromHistory(starter: ScreeningWorkflowStarter, job: StaleQueuedJob): Promise<boolean> {
    const update = await starter.lastMirrorWrite(job.requestId);
    if (!update) return false;
    const applied = await deps.jobs.applyUpdate(update);
    if (applied)
      deps.metrics?.jobFinished({
        apiType: applied.apiType,
        chain: applied.chain,
        status: update.status,
        errorCode: update.error?.code ?? null,
        seconds: (applied.completedAt.getTime() - applied.createdAt.getTime()) / 1000,
      });
    deps.log?.warn('queued job whose workflow completed: its result copied into the mirror', {
      requestId: job.requestId,
      status: update.status,
      applied: applied !== null,
    });
    return true;
  }

  return {
    /**
     * One sweep over jobs still `queued` after `restartAfterMs`. By the state of the job's workflow:
     * none ever started → start it with the stored input (the same workflow id, so a start that raced with
     * the api's own is refused by REJECT_DUPLICATE), or release and fail it once older than
     * `abandonAfterMs`; running → leave it; completed → copy the result its history wrote into the mirror;
     * ended without a result → release and fail it. The thresholds are this worker's config; an argument
     * (sweeps scheduled before that carry one) is ignored.
     */
    async sweepQueuedJobs(_ignored?: unknown): Promise<QueuedJobSweepSummary> {
      const starter = deps.screeningStarter;
      if (!starter)
        throw ApplicationFailure.nonRetryable(
          'this worker has no Temporal client to start workflows with',
          'SweeperNotConfigured',
        );
      const thresholds = deps.queuedJobSweep;
      const summary: QueuedJobSweepSummary = {
        examined: 0,
        restarted: 0,
        running: 0,
        released: 0,
        repaired: 0,
        left: 0,
      };
      for (const job of await deps.jobs.findStaleQueued(thresholds.restartAfterMs, thresholds.limit)) {
        heartbeat(job.requestId);
        summary.examined++;
        const status = await starter.status(job.requestId);
        if (status === 'RUNNING') {
          summary.running++;
        } else if (status === null && job.ageMs < thresholds.abandonAfterMs) {
          const started = await starter.start(inputOf(job, thresholds.heartbeatTimeoutMs), {
            memo: { startedBy: 'queued-job-sweeper', ...httpRequestMemo(job.httpRequestId ?? undefined) },
          });
          if (started === 'started') summary.restarted++;
          else summary.running++;
          deps.log?.warn('queued job had no workflow; started it', {
            requestId: job.requestId,
            httpRequestId: job.httpRequestId,
            ageMs: job.ageMs,
            started,
          });
        } else if (status === null) {
          await releaseAndFail(job, NEVER_STARTED);
          summary.released++;
        } else if (status === 'COMPLETED') {
          if (await repairFromHistory(starter, job)) summary.repaired++;
          else {
            deps.log?.error('queued job whose workflow completed without a mirror write; left for an operator', {
              requestId: job.requestId,
            });
            summary.left++;
          }
        } else {
          await releaseAndFail(job, abortedError(status));
          summary.released++;
        }
      }
      return summary;
    },
  };
}

export type QueuedJobActivities = ReturnType<typeof createQueuedJobActivities>;
