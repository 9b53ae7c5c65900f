/** The worker bundles this file: every workflow type is exported from here. */
export { screeningWorkflow } from './screening';
export { paypalEventWorkflow } from './paypal-event';
export { payfastPaymentWorkflow } from './payfast-payment';
export { clerkEventWorkflow } from './clerk-event';
export { x402ReportWorkflow } from './x402-report';
export { marketSyncWorkflow } from './market-sync';
export { payfastRefundWorkflow } from './payfast-refund';
export { queuedJobSweeperWorkflow } from './queued-job-sweeper';
