/** Batch screening: one workflow per batch that runs its items as screening jobs. Deterministic code only. */
import {
  condition,
  continueAsNew,
  executeChild,
  ParentClosePolicy,
  proxyActivities,
  sleep,
} from '@temporalio/workflow';
import type { BatchActivities } from './activities';
import type { BatchItemStart, BatchOutcome, BatchWorkflowInput } from './workflow-types';
import { ApiTypeAttr, ChainAttr, JobStatusAttr, UserIdAttr } from '../platform/temporal/search-attributes';
import { screeningWorkflowId } from '../screening/workflow-ids';
import type { batchItemScreeningWorkflow } from '../screening/workflow-types';

const activities = proxyActivities<BatchActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1s', maximumInterval: '30s' },
});

/** Items loaded per activity call. */
const PAGE_SIZE = 100;
/** batch_progress is sent at most this often while items finish (and always once at completion). */
const PROGRESS_EVERY_MS = 1_000;
/** How often an item started by an earlier run (or ended abnormally) is asked about until it has finished. */
const RECOVER_EVERY = '5 seconds';
/** Before looking at the whole batch again when completing found an item still queued (should not happen). */
const RESCAN_AFTER = '1 minute';
/**
 * One batch (id `batch:<batch id>`): starts each accepted item's job as a child screening workflow
 * (batchItemScreeningWorkflow, `screening:<request id>`, the input a single job gets, so the same hold, charge-once
 * and mirror, in two local activities: the batch did the per-request work), at most
 * `concurrency` at a time, in request order. After `continueAsNewAfter` starts it waits for its running children and
 * continues as new from the last item started, so no child is handed over and none started twice; a child start
 * that finds the job's workflow already there (an earlier run of this batch started it before being restarted) is
 * followed through the job's mirror instead. When every item has finished it marks the batch completed. Progress
 * goes to the owner's sockets coalesced: at most one batch_progress a second, and one at completion. Each run
 * first checks its input (checkBatchRun): a batch id the api never recorded, another user's, or this workflow not
 * being `batch:<batch id>` fails the run with INPUT_NOT_AUTHENTIC before it starts anything, and the concurrency
 * figures are clamped to the worker's BATCH_CONCURRENCY / BATCH_CONTINUE_AS_NEW_AFTER.
 */
export async function batchScreeningWorkflow(input: BatchWorkflowInput): Promise<BatchOutcome> {
  const { batchId } = input;
  const { concurrency, continueAsNewAfter } = await activities.checkBatchRun(input);
  let afterIndex = input.afterIndex ?? -1;
  let started = 0;
  let running = 0;
  let unannounced = 0;
  let lastNotice = Date.now();
  let notice: Promise<void> | null = null;

  /** Sends batch_progress when items finished since the last one and a second has passed (or when forced). */
  const announce = (force = false): void => {
    if (notice || unannounced === 0 || (!force && Date.now() - lastNotice < PROGRESS_EVERY_MS)) return;
    unannounced = 0;
    lastNotice = Date.now();
    notice = activities.publishBatchProgress({ batchId }).finally(() => {
      notice = null;
    });
  };

  const follow = async (item: BatchItemStart): Promise<void> => {
    const job = item.input;
    try {
      await executeChild<typeof batchItemScreeningWorkflow>('batchItemScreeningWorkflow', {
        workflowId: screeningWorkflowId(job.requestId),
        args: [job],
        // A job runs at most once: a start that finds its workflow (running or closed) is refused, not repeated.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        // The job is its owner's like any other: it finishes (and is charged or released) whatever the batch does.
        parentClosePolicy: ParentClosePolicy.ABANDON,
        typedSearchAttributes: [
          { key: UserIdAttr, value: job.userId },
          { key: ApiTypeAttr, value: job.apiType },
          { key: ChainAttr, value: job.chain },
          { key: JobStatusAttr, value: 'queued' },
        ],
      });
    } catch {
      // Started before (by an earlier run of this batch), or ended without a result:
      // recovered from its mirror and its workflow.
      while ((await activities.settleBatchItem({ requestId: job.requestId, userId: job.userId })) === 'running') {
        await sleep(RECOVER_EVERY);
      }
    }
  };

  let exhausted = false;
  while (!exhausted && started < continueAsNewAfter) {
    const limit = Math.min(PAGE_SIZE, continueAsNewAfter - started);
    const page = await activities.loadBatchItems({ batchId, afterIndex, limit });
    exhausted = page.length < limit;
    for (const item of page) {
      await condition(() => running < concurrency);
      running++;
      started++;
      afterIndex = item.index;
      void follow(item).finally(() => {
        running--;
        unannounced++;
        announce();
      });
    }
  }
  await condition(() => running === 0);
  await notice;

  if (!exhausted) {
    announce(true);
    await notice;
    await continueAsNew<typeof batchScreeningWorkflow>({ ...input, afterIndex });
  }
  const completion = await activities.completeBatch({ batchId });
  if (!completion.completed) {
    await sleep(RESCAN_AFTER);
    await continueAsNew<typeof batchScreeningWorkflow>({ ...input, afterIndex: -1 });
  }
  return { batchId, started, status: 'completed' };
}
