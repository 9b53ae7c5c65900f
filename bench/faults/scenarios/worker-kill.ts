import { whenAnalysesInFlight } from '../analyses-in-flight';
import type { FaultStack } from '../fault-stack';
import { auditJobs, requireJobPromises } from '../job-audit';
import { freshEthereumKya, startJobLoad } from '../job-load';
import { pct, seconds, startReport, type ScenarioReport } from '../report';
import { describeRetried, interruptedWorkflowTasks, retriedActivities } from '../retried-activities';

/**
 * The worker process SIGKILLed while `concurrency` clients keep jobs in flight (each analysis spends about
 * a second on the slow node), then started again: every job completes and is charged exactly once.
 */
export async function workerKill(
  stack: FaultStack,
  options: { jobs: number; concurrency: number },
): Promise<ScenarioReport> {
  const report = startReport('worker SIGKILL');
  const seed = options.jobs * 10;
  const user = await stack.createUser({ credits: seed });
  const load = startJobLoad({
    apiUrl: stack.apiUrl,
    key: user.key,
    jobs: options.jobs,
    concurrency: options.concurrency,
    body: freshEthereumKya,
    deadline: Date.now() + 180_000,
  });

  await Promise.race([load.whenCompleted(Math.ceil(options.jobs / 4)), load.done]);
  const chainCalls = await whenAnalysesInFlight(stack, 3);
  const inFlight = load.inFlight();
  const doomed = stack.worker();
  doomed.kill('SIGKILL');
  await doomed.exited;
  const restart = Date.now();
  await stack.startWorker();
  const restartMs = Date.now() - restart;
  const outcomes = await load.done;

  const audit = await auditJobs(stack.pool, { id: user.id, seed }, outcomes);
  const requestIds = outcomes.flatMap((o) => (o.requestId ? [o.requestId] : []));
  const retried = await retriedActivities(stack.temporal, requestIds);
  // The analysis is a local activity run inside the job's workflow task: a kill mid-analysis times that task out,
  // and the next worker runs the analysis again in a new one (no activity attempt 2 is recorded for it).
  const interrupted = await interruptedWorkflowTasks(
    stack.temporal,
    requestIds.map((id) => `screening:${id}`),
  );
  requireJobPromises(report, audit);
  report.figure('jobs/chain-calls-in-flight-at-kill', `${inFlight}/${chainCalls}`);
  report.figure('retried', describeRetried(retried));
  report.figure('interrupted-workflow-tasks', interrupted);
  report.figure('restart→polling', seconds(restartMs));
  report.figure(
    'job-p50/max',
    `${seconds(
      pct(
        outcomes.map((o) => o.ms),
        50,
      ),
    )}/${seconds(Math.max(...outcomes.map((o) => o.ms)))}`,
  );
  // Without an interrupted analysis the kill landed between analyses and proved less than it claims.
  report.require(
    interrupted + (retried.analyzeTarget ?? 0) > 0,
    'no analysis was interrupted by the kill (no timed-out workflow task, no analyzeTarget attempt 2)',
  );
  return report.finish();
}
