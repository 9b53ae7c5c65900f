import { whenAnalysesInFlight } from '../analyses-in-flight';
import type { FaultStack } from '../fault-stack';
import { auditJobs, requireJobPromises } from '../job-audit';
import { freshEthereumKya, startJobLoad } from '../job-load';
import { seconds, sleep, startReport, type ScenarioReport } from '../report';
import { describeRetried, retriedActivities } from '../retried-activities';

/**
 * Temporal SIGKILLed with jobs in flight and started again on the same ports and data after `outageMs` (the dev
 * server on its SQLite file, or the production shape's server on its Postgres), while clients keep submitting (a
 * 503 is retried, as its message asks): every job completes, each charged once, and a job refused during the outage
 * holds and costs nothing.
 */
export async function temporalKill(
  stack: FaultStack,
  options: { jobs: number; concurrency: number; outageMs: number },
): Promise<ScenarioReport> {
  const report = startReport('Temporal SIGKILL');
  const seed = options.jobs * 10;
  const user = await stack.createUser({ credits: seed });
  const load = startJobLoad({
    apiUrl: stack.apiUrl,
    key: user.key,
    jobs: options.jobs,
    concurrency: options.concurrency,
    body: freshEthereumKya,
    deadline: Date.now() + 240_000,
  });

  await Promise.race([load.whenCompleted(Math.ceil(options.jobs / 4)), load.done]);
  const chainCalls = await whenAnalysesInFlight(stack, 3);
  const inFlight = load.inFlight();
  const worker = stack.worker();
  await stack.killTemporal();
  const killedAt = Date.now();
  await sleep(options.outageMs);
  await stack.startTemporal();
  const upAt = Date.now();
  const completedAtRestart = load.completed();
  await Promise.race([load.whenCompleted(completedAtRestart + 1), load.done]);
  const firstCompletionMs = Date.now() - upAt;
  const outcomes = await load.done;

  const audit = await auditJobs(stack.pool, { id: user.id, seed }, outcomes);
  const retried = await retriedActivities(
    stack.temporal,
    outcomes.flatMap((o) => (o.requestId ? [o.requestId] : [])),
  );
  requireJobPromises(report, audit);
  report.figure('jobs/chain-calls-in-flight-at-kill', `${inFlight}/${chainCalls}`);
  report.figure('outage', seconds(upAt - killedAt));
  report.figure(
    'refused-503',
    outcomes.reduce((n, o) => n + o.refused.length, 0),
  );
  report.figure('restart→next-completion', seconds(firstCompletionMs));
  report.figure('retried', describeRetried(retried));
  report.figure('worker-survived', worker.isRunning() ? 'yes' : 'no');
  report.require(worker.isRunning(), `the worker process exited during the outage:\n${worker.logTail(5)}`);
  return report.finish();
}
