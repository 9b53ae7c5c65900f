import type { Pool } from 'pg';
import { AppError } from '../platform/errors';
import { isUuid } from '../platform/http/common-patterns';
import { listVersionNoticeWorkflowId, monitorWorkflowId } from './workflow-ids';
import type { ListVersionNoticeInput } from './workflow-types';
import { SCREENING_ERRORS } from '../screening';

/**
 * Whoever reaches the Temporal frontend can start a monitor workflow with any input. Its activities act only on what
 * the api stored: these checks are what they ask first. A failure is MONITOR_WORKFLOW_NOT_AUTHENTIC, not retried.
 */
const notAuthentic = (message: string) => new AppError(SCREENING_ERRORS.MONITOR_WORKFLOW_NOT_AUTHENTIC, message);

/**
 * A monitor workflow acts only for the monitor its own id names: the api starts `monitor:<id>` for monitor <id>, and
 * while that workflow runs Temporal refuses a second start of the id, so a hand-started one with another id (or
 * naming another monitor) is refused here before anything is read or held.
 */
export function assertMonitorWorkflow(monitorId: unknown, workflowId: string): asserts monitorId is string {
  if (typeof monitorId !== 'string' || !isUuid(monitorId) || workflowId !== monitorWorkflowId(monitorId)) {
    throw notAuthentic(`workflow ${workflowId} is not the workflow of monitor ${String(monitorId)}`);
  }
}

/** A monitor id the api never stored (the workflow id matched, the row does not exist). */
export const unknownMonitor = (monitorId: string) => notAuthentic(`no monitor ${monitorId} was ever created`);

/**
 * Claims the notice of a list version for this run (insert-once, key: the version id): true when this run holds the
 * claim (its first attempt, or a retry of it), false when another run claimed it first (a second start of
 * list-version:<id> after the first ended: it signals nobody, so no owner pays twice for one version). The version
 * must exist with the issue date the input names, and the workflow must be list-version:<its id>.
 */
export async function claimListVersionNotice(
  pool: Pool,
  input: ListVersionNoticeInput,
  execution: { workflowId: string; runId: string },
): Promise<boolean> {
  const { versionId, issueDate } = input;
  if (
    !Number.isSafeInteger(versionId) ||
    versionId < 1 ||
    typeof issueDate !== 'string' ||
    execution.workflowId !== listVersionNoticeWorkflowId(versionId)
  ) {
    throw notAuthentic(`workflow ${execution.workflowId} is not the notice of list version ${String(versionId)}`);
  }
  await pool.query(
    `INSERT INTO list_version_notices (version_id, run_id)
     SELECT id, $2 FROM list_versions WHERE id = $1 AND to_char(issue_date, 'YYYY-MM-DD') = $3
     ON CONFLICT (version_id) DO NOTHING`,
    [versionId, execution.runId, issueDate],
  );
  const { rows } = await pool.query<{ run_id: string }>(
    'SELECT run_id FROM list_version_notices WHERE version_id = $1',
    [versionId],
  );
  if (!rows[0]) throw notAuthentic(`no list version ${versionId} of issue date ${issueDate}`);
  return rows[0].run_id === execution.runId;
}
