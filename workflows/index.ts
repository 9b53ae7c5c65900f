/** The worker bundles this file: every workflow type is exported from here, one file per feature. */
export { batchItemScreeningWorkflow, queuedJobSweeperWorkflow, screeningWorkflow } from './screening';
export { payfastPaymentWorkflow, payfastRefundWorkflow, paypalEventWorkflow } from './billing';
export { clerkEventWorkflow } from './identity';
export { x402ReportWorkflow } from './x402';
export { marketSyncWorkflow } from './market';
export { freezeSyncWorkflow, listRefreshWorkflow } from './lists';
export { listVersionNoticeWorkflow, monitorWorkflow } from './monitors';
export { batchScreeningWorkflow } from './batches';
export { caseWorkflow } from './cases';
