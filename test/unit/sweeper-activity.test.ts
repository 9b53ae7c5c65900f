import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { CreditStore } from '../../src/billing';
import type { JobStore, JobUpdate, StaleQueuedJob } from '../../src/screening/jobs-store';
import type { ScreeningWorkflowStarter } from '../../src/screening/screening-workflow-starter';
import { createQueuedJobActivities } from '../../src/screening/sweeper-activities';

/**
 * The sweeper as Temporal runs it (MockActivityEnvironment: a real activity context, no server): it heartbeats once
 * per job, so a sweep of hundreds of jobs outlives its heartbeat timeout only while it makes progress, and a worker
 * without a Temporal client fails it for good instead of retrying forever. Ports are in-memory fakes.
 */
const THRESHOLDS = { restartAfterMs: 60_000, abandonAfterMs: 3_600_000, limit: 500, heartbeatTimeoutMs: 30_000 };

function staleJob(requestId: string, ageMs: number): StaleQueuedJob {
  return {
    requestId,
    userId: 'u1',
    apiType: 'KYA',
    chain: 'ethereum',
    target: '0xabc',
    referenceId: null,
    crawlTimeoutMs: 10_000,
    maxDepth: 2,
    creditsHeld: 3,
    ageMs,
  };
}

function fakes(jobsInSweep: StaleQueuedJob[], statuses: Record<string, string | null>) {
  const failed: string[] = [];
  const released: string[] = [];
  const started: string[] = [];
  const applied: JobUpdate[] = [];
  const finished: { status: string; errorCode: string | null }[] = [];
  const jobs = {
    findStaleQueued: async () => jobsInSweep,
    markNotStarted: async (requestId: string) => {
      failed.push(requestId);
      return true;
    },
    applyUpdate: async (update: JobUpdate) => {
      applied.push(update);
      return { apiType: 'kya', chain: 'ethereum', createdAt: new Date(0), completedAt: new Date(2_000) };
    },
  } as unknown as JobStore;
  const credits = {
    releaseHold: async (key: string) => {
      released.push(key);
      return 3;
    },
    findTransaction: async () => null,
  } as unknown as CreditStore;
  const starter = {
    status: async (requestId: string) => statuses[requestId] ?? null,
    start: async (input: { requestId: string }) => {
      started.push(input.requestId);
      return 'started';
    },
    lastMirrorWrite: async (requestId: string) =>
      ({ requestId, seq: '9', status: 'completed', error: null }) as unknown as JobUpdate,
  } as unknown as ScreeningWorkflowStarter;
  const metrics = { jobFinished: (job: { status: string; errorCode: string | null }) => void finished.push(job) };
  return { jobs, credits, starter, metrics, failed, released, started, applied, finished };
}

describe('the queued-job sweeper activity', () => {
  test('heartbeats once per job and settles each by its workflow state', async () => {
    // Arrange: one never started (young), one never started (abandoned), one running, one completed, one terminated.
    const sweep = [
      staleJob('young', 120_000),
      staleJob('abandoned', 7_200_000),
      staleJob('running', 120_000),
      staleJob('completed', 120_000),
      staleJob('terminated', 120_000),
    ];
    const f = fakes(sweep, { running: 'RUNNING', completed: 'COMPLETED', terminated: 'TERMINATED' });
    const activities = createQueuedJobActivities({
      jobs: f.jobs,
      credits: f.credits,
      screeningStarter: f.starter,
      queuedJobSweep: THRESHOLDS,
      metrics: f.metrics,
    });
    const env = new MockActivityEnvironment();
    const heartbeats: unknown[] = [];
    env.on('heartbeat', (details: unknown) => heartbeats.push(details));

    // Act
    const summary = await env.run(activities.sweepQueuedJobs);

    // Assert
    expect(heartbeats).toEqual(['young', 'abandoned', 'running', 'completed', 'terminated']);
    expect(summary).toEqual({ examined: 5, restarted: 1, running: 1, released: 2, repaired: 1, left: 0 });
    expect(f.started).toEqual(['young']);
    expect(f.released).toEqual(['abandoned', 'terminated']);
    expect(f.failed).toEqual(['abandoned', 'terminated']);
    expect(f.applied.map((u) => u.requestId)).toEqual(['completed']);
    // Every job the sweep ended is counted once, with its code.
    expect(f.finished.map((j) => [j.status, j.errorCode])).toEqual([
      ['failed', 'NOT_STARTED'],
      ['completed', null],
      ['failed', 'JOB_ABORTED'],
    ]);
  });

  test('a worker without a Temporal client fails the sweep for good', async () => {
    const f = fakes([], {});
    const activities = createQueuedJobActivities({ jobs: f.jobs, credits: f.credits, queuedJobSweep: THRESHOLDS });

    const failure = await new MockActivityEnvironment().run(activities.sweepQueuedJobs).catch((err: unknown) => err);

    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'SweeperNotConfigured', nonRetryable: true });
  });
});
