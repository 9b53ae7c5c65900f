/** What other parts use of batch screening: its routes, service, store, starter, worker-side steps and views. */
export { createBatchRouter, isBatchSubmit, type BatchRouterDeps } from './batch-routes';
export { createBatchService, type BatchService, type BatchServiceDeps } from './batch-service';
export { createBatchStore, type BatchStore } from './batch-store';
export {
  batchWorkflowSettings,
  createBatchWorkflowStarter,
  type BatchWorkflowSettings,
  type BatchWorkflowStarter,
} from './batch-workflow-starter';
export { recoverBatchItem, type RecoverBatchItemDeps } from './recover-batch-item';
export { checkBatchRun } from './authentic-batch-run';
export { sweepBatches } from './batch-sweep';
export { batchWorkflowId } from './workflow-ids';
export { batchRequestSchema, MAX_BATCH_ITEMS } from './batch-request';
export { CSV_COLUMNS } from './batch-csv';
export { batchListResponse, batchResponse, batchWithItemsResponse } from './batch-views';
export type { BatchItemStart, BatchOutcome, BatchSweepSummary, BatchWorkflowInput } from './workflow-types';
