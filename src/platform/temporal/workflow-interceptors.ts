/**
 * The workflow interceptor modules every worker registers (memo httpRequestId → activity headers and
 * workflow log lines, workflow-context-interceptor.ts). A prebuilt bundle must be built with them:
 * bundleWorkflowCode({ workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES }). Kept apart from
 * runtime/worker.ts so a bundler does not load the whole worker to learn one path.
 */
export const WORKFLOW_INTERCEPTOR_MODULES = [require.resolve('./workflow-context-interceptor')];
