/** The worker bundles this file: every workflow type is exported from here. */
export { screeningWorkflow } from './screening';
