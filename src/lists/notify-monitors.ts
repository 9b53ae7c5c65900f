import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { listVersionNoticeWorkflowId } from '../monitors';
import type { ListVersion } from './list-store';

/**
 * Tells the monitors a new version touched (a list loaded outside the refresh workflow, e.g. npm run lists:update):
 * the same notice workflow the refresh starts, keyed by the version, so it runs once however often it is asked.
 */
export async function noticeMonitors(temporal: Client, taskQueue: string, version: ListVersion): Promise<void> {
  await temporal.workflow
    .start('listVersionNoticeWorkflow', {
      workflowId: listVersionNoticeWorkflowId(version.id),
      taskQueue,
      args: [{ versionId: version.id, issueDate: version.issueDate }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    })
    .catch((err: unknown) => {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    });
}
