/** Inputs and results of the batch workflow and its activities. Types only: the workflow bundle stays pure. */
import type { ScreeningInput } from '../screening';

export interface BatchWorkflowInput {
  batchId: string;
  userId: string;
  /** Item jobs running at once (BATCH_CONCURRENCY when the batch was started). */
  concurrency: number;
  /** Item starts after which a run drains its running items and continues as new (BATCH_CONTINUE_AS_NEW_AFTER). */
  continueAsNewAfter: number;
  /** Carried across continue-as-new: the index of the last item started (the next run starts after it). */
  afterIndex?: number;
}

/** One item to start: its index in the request and the input its screening job runs with. */
export interface BatchItemStart {
  index: number;
  input: ScreeningInput;
}

/** The state of an item whose job the batch could not follow as its child (started before, or ended abnormally). */
export type BatchItemState = 'finished' | 'running';

export interface BatchCompletion {
  /** False while an accepted item's job is still queued (the workflow then looks at the rest again). */
  completed: boolean;
  /** Accepted items still queued. */
  queued: number;
}

export interface BatchOutcome {
  batchId: string;
  /** Items this run started (this run only: earlier runs' starts are in their own results). */
  started: number;
  status: 'completed';
}

export interface BatchSweepSummary {
  /** Running batches older than the threshold, looked at. */
  batchesExamined: number;
  /** Of those, batches whose workflow was not running and was started now. */
  batchesStarted: number;
}

/** Published for the screening workflows, which sweep batches (type-only). */
export type { BatchActivities } from './activities';
