import type { CreditStore } from '../billing';
import type { Logger } from '../platform/logging/logger';
import { httpRequestMemo } from '../platform/temporal/http-request-memo';
import { SCREENING_ERRORS } from './error-codes';
import { applyFinalMirrorWrite, releaseAndFailJob } from './job-end-counted';
import type { JobStore, StaleQueuedJob } from './jobs-store';
import type { ScreeningWorkerMetrics } from './metrics/ports';
import type { QueuedJobSweepThresholds } from './queued-job-sweeper';
import type { ScreeningWorkflowStarter } from './screening-workflow-starter';
import type { JobError, QueuedJobSweepSummary, ScreeningInput } from './workflow-types';

export interface QueuedJobSweepDeps {
  jobs: JobStore;
  credits: CreditStore;
  starter: ScreeningWorkflowStarter;
  /** From this worker's config (QUEUED_JOB_*): a sweep's own input is never trusted with them. */
  thresholds: QueuedJobSweepThresholds;
  log?: Logger;
  metrics?: Pick<ScreeningWorkerMetrics, 'jobFinished'>;
}

const NEVER_STARTED: JobError = {
  code: SCREENING_ERRORS.NOT_STARTED.code,
  message:
    'The job was never scheduled (its api process stopped, or Temporal could not be reached, before it started); ' +
    'the credits held were released and nothing was charged',
};

const abortedError = (status: string): JobError => ({
  code: SCREENING_ERRORS.JOB_ABORTED.code,
  message: `The job's workflow ended without a result (${status}); credits held and not spent were released`,
});

function inputOf(job: StaleQueuedJob, heartbeatTimeoutMs: number): ScreeningInput {
  const { ageMs: _age, httpRequestId: _httpRequestId, ...fields } = job;
  return { ...fields, heartbeatTimeoutMs };
}

/**
 * One sweep over jobs still `queued` after `restartAfterMs`. By the state of the job's workflow: none ever started →
 * start it with the stored input (the same workflow id, so a start that raced with the api's own is refused by
 * REJECT_DUPLICATE), or release and fail it once older than `abandonAfterMs`; running → leave it; completed → apply
 * the mirror write its history scheduled (its last write never landed, e.g. a submit whose start answered an error
 * although the server had started it); ended without a result → release and fail it. Idempotent in every order.
 * `onJob` is called before each job (the activity heartbeats there).
 */
export async function sweepQueuedJobs(
  deps: QueuedJobSweepDeps,
  onJob: (requestId: string) => void = () => undefined,
): Promise<QueuedJobSweepSummary> {
  const { thresholds, starter } = deps;
  const summary: QueuedJobSweepSummary = { examined: 0, restarted: 0, running: 0, released: 0, repaired: 0, left: 0 };
  const releaseAndFail = async (job: StaleQueuedJob, error: JobError) => {
    const { charged } = await releaseAndFailJob(deps, job, error);
    deps.log?.warn('queued job released', { requestId: job.requestId, code: error.code, ageMs: job.ageMs, charged });
    summary.released++;
  };
  for (const job of await deps.jobs.findStaleQueued(thresholds.restartAfterMs, thresholds.limit)) {
    onJob(job.requestId);
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
    } else if (status === 'COMPLETED') {
      const update = await starter.lastMirrorWrite(job.requestId);
      if (update) {
        const applied = await applyFinalMirrorWrite(deps, update);
        deps.log?.warn('queued job whose workflow completed: its result copied into the mirror', {
          requestId: job.requestId,
          status: update.status,
          applied: applied !== null,
        });
        summary.repaired++;
      } else {
        deps.log?.error('queued job whose workflow completed without a mirror write; left for an operator', {
          requestId: job.requestId,
        });
        summary.left++;
      }
    } else {
      await releaseAndFail(job, abortedError(status));
    }
  }
  return summary;
}
