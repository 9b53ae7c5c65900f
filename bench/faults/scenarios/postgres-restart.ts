import { randomUUID } from 'node:crypto';
import { emptyTally, retryingSender } from '../history-webhook-sender';
import type { FaultStack } from '../fault-stack';
import { seconds, sleep, startReport, type ScenarioReport } from '../report';

/**
 * Postgres stopped under history-webhook load and started again on the same data directory while the
 * senders retry their 5xx answers: every record is stored exactly once (rows = unique requestIds).
 */
export async function postgresRestart(
  stack: FaultStack,
  options: { senders: number; durationMs: number; outageMs: number },
): Promise<ScenarioReport> {
  const report = startReport('Postgres restart');
  const userRef = `user_faults_pg_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const tally = emptyTally();
  const stopAt = Date.now() + options.durationMs;
  const senders = Promise.all(
    Array.from({ length: options.senders }, () =>
      retryingSender(stack.apiUrl, userRef, tally, stopAt, stopAt + 60_000),
    ),
  );

  await sleep(options.durationMs * 0.25);
  const ackedBefore = tally.acknowledged.size;
  const stoppedAt = Date.now();
  await stack.stopPostgres();
  await sleep(options.outageMs);
  await stack.startPostgres();
  const outageMs = Date.now() - stoppedAt;
  await senders;

  const { rows } = await stack.pool.query<{ request_id: string; n: number }>(
    'SELECT request_id::text, count(*)::int AS n FROM activity_history WHERE user_ref = $1 GROUP BY request_id',
    [userRef],
  );
  const stored = new Map(rows.map((r) => [r.request_id, r.n]));
  const lost = [...tally.sent].filter((id) => !stored.has(id)).length;
  const duplicated = rows.reduce((sum, r) => sum + r.n - 1, 0);
  const unacknowledged = tally.sent.size - tally.acknowledged.size;
  report.figure('requestIds', tally.sent.size);
  report.figure(
    'rows',
    rows.reduce((sum, r) => sum + r.n, 0),
  );
  report.figure('lost', lost);
  report.figure('duplicated', duplicated);
  report.figure('5xx-retried', tally.serverErrors);
  report.figure('conn-errors', tally.networkErrors);
  report.figure('outage', seconds(outageMs));
  report.figure('slowest-ack', seconds(tally.slowestAckMs));
  report.require(lost === 0, `${lost} records were never stored`);
  report.require(duplicated === 0, `${duplicated} records were stored more than once`);
  report.require(unacknowledged === 0, `${unacknowledged} records never got their 201`);
  report.require(stored.size === tally.sent.size, `rows for ${stored.size} requestIds, ${tally.sent.size} sent`);
  // Without refused posts the outage fell outside the load and proved nothing.
  report.require(
    tally.serverErrors + tally.networkErrors > 0 && ackedBefore > 0,
    'the outage did not interrupt the load (no 5xx or refused connection seen)',
  );
  return report.finish();
}
