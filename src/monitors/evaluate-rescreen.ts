import type { Pool } from 'pg';
import type { JobStore } from '../screening';
import { inTransaction } from '../platform/db/transaction';
import { alertReason, summarise } from './monitor-summary';
import type { MonitorStore } from './monitors-store';

export type Evaluation = { status: 'alerted' | 'unchanged' | 'baseline' | 'failed' | 'stopped'; reason?: string };

/**
 * Compares a finished re-screen with the monitor's last result and records it: the new summary, the addresses to
 * watch (the target and every address of the crawl graph, so a list change about a counterparty re-screens it),
 * and an alert when the level, the sanctioned flag or the findings changed (monitor-summary.ts). The first
 * screening is the baseline and alerts nothing. Idempotent per request id (the alert is unique per request).
 */
export async function evaluateRescreen(
  deps: { pool: Pool; monitors: MonitorStore; jobs: Pick<JobStore, 'findForUser'> },
  input: { monitorId: string; requestId: string; reasons: string[] },
): Promise<Evaluation> {
  const monitor = await deps.monitors.find(input.monitorId);
  if (!monitor || monitor.status === 'deleted') return { status: 'stopped' };
  const job = await deps.jobs.findForUser(input.requestId, monitor.userId);
  if (job?.status !== 'completed' || !job.response) return { status: 'failed' };
  // The stored answer as the screening feature wrote it (its zod schemas describe it).
  const answer = { response: job.response, full: job.fullResponse } as unknown as Parameters<typeof summarise>[0];
  const summary = summarise(answer);
  const graph = (job.fullResponse as { graph?: { nodes?: { address: string | null }[] } } | null)?.graph?.nodes ?? [];
  const watched = [monitor.address, ...graph.map((n) => n.address).filter((a): a is string => Boolean(a))];
  const before = monitor.lastResult;
  const why = before ? alertReason(before, summary, monitor.alertLevel) : null;
  const reason = why ? `${why} (${input.reasons.join('; ')})` : null;
  await inTransaction(deps.pool, (client) =>
    deps.monitors.recordScreening(client, {
      monitorId: monitor.id,
      userId: monitor.userId,
      requestId: input.requestId,
      summary,
      watched,
      alert: reason && before ? { reason, before } : null,
    }),
  );
  if (!before) return { status: 'baseline' };
  return reason ? { status: 'alerted', reason } : { status: 'unchanged' };
}
