import type { Client } from '@temporalio/client';

/**
 * Counts, over the screening workflows of `requestIds`, the activities that had to start again (attempt ≥ 2),
 * by activity type: the proof that a fault interrupted work in flight rather than landing between jobs.
 */
export async function retriedActivities(temporal: Client, requestIds: string[]): Promise<Record<string, number>> {
  const retried: Record<string, number> = {};
  for (const id of requestIds) {
    const history = await temporal.workflow.getHandle(`screening:${id}`).fetchHistory();
    const typeOf = new Map<string, string>();
    for (const e of history.events ?? []) {
      const scheduled = e.activityTaskScheduledEventAttributes;
      if (scheduled) typeOf.set(String(e.eventId), scheduled.activityType?.name ?? '?');
      const started = e.activityTaskStartedEventAttributes;
      if (started && (started.attempt ?? 1) >= 2) {
        const type = typeOf.get(String(started.scheduledEventId)) ?? '?';
        retried[type] = (retried[type] ?? 0) + 1;
      }
    }
  }
  return retried;
}

export const describeRetried = (retried: Record<string, number>) =>
  Object.entries(retried)
    .map(([type, n]) => `${type}×${n}`)
    .join(',') || 'none';

/**
 * Counts, over the workflows `workflowIds`, the workflow tasks that timed out or failed: the trace a killed worker
 * leaves on work held in memory (a workflow task running local activities, or its sticky cache), where no activity
 * attempt 2 is recorded because the step is re-run inside the next workflow task.
 */
export async function interruptedWorkflowTasks(temporal: Client, workflowIds: string[]): Promise<number> {
  let interrupted = 0;
  for (const id of workflowIds) {
    const history = await temporal.workflow.getHandle(id).fetchHistory();
    for (const e of history.events ?? []) {
      if (e.workflowTaskTimedOutEventAttributes || e.workflowTaskFailedEventAttributes) interrupted += 1;
    }
  }
  return interrupted;
}
