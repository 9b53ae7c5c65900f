/** What other parts use of x402 pay-per-use reports: the worker's check of a report workflow's input. */
export { checkReportInput } from './authentic-report-input';
export { createX402PaymentStore, type X402PaymentStore } from './x402-payments-store';
