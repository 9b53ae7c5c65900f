import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { listVersionNoticeWorkflowId } from '../monitors';
import type { ListVersion } from './list-store';

/**
 * Tells the monitors a new version touched (a list loaded outside the refresh workflow, e.g. npm run lists:update):
 * the same notice workflow the refresh starts, keyed by the version. The notice claims its version once in Postgres
 * (list_version_notices), so a run that failed (a hand-started one before the version existed) may be followed by the
 * real one, and a second successful run signals nobody.
 */
export async function noticeMonitors(temporal: Client, taskQueue: string, version: ListVersion): Promise<void> {
  await temporal.workflow
    .start('listVersionNoticeWorkflow', {
      workflowId: listVersionNoticeWorkflowId(version.id),
      taskQueue,
      args: [{ versionId: version.id, issueDate: version.issueDate }],
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
    })
    .catch((err: unknown) => {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    });
}
