import type { Pool, PoolClient } from 'pg';
import { AppError } from '../platform/errors';
import { screeningWorkflowId } from './workflow-ids';
import type { ScreeningInput } from './workflow-types';
import { SCREENING_ERRORS } from './error-codes';

/**
 * A workflow input the api never produced (started by hand through the Temporal frontend, or a real job's request
 * id with another user, amount, target or depth): the workflow stops here, before any chain call, charge or release.
 */
export class InputNotAuthenticError extends AppError {
  constructor(message: string) {
    super(SCREENING_ERRORS.INPUT_NOT_AUTHENTIC, message);
  }
}

/**
 * A request id as the api draws it (randomUUID: lower-case), so the hold key and the job's id are one spelling; user
 * ids are read from Postgres in the same form.
 */
const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** A request id the api could have drawn, or the refusal. */
export function requireRequestId(requestId: unknown): string {
  if (typeof requestId !== 'string' || !LOWER_UUID.test(requestId))
    throw new InputNotAuthenticError('the request id is not one the api draws (a lower-case UUID)');
  return requestId;
}

/** What Postgres holds for a request id: its hold and its job, read in one statement. */
interface Recorded {
  hold_user: string | null;
  hold_amount: string | null;
  job_user: string | null;
  job_status: string | null;
  /** The job row's columns equal the input's (target, kind, depth, timeout, reference, policy, credits held). */
  same_request: boolean | null;
}

/**
 * Checks a screening job's workflow input (screeningWorkflow, batchItemScreeningWorkflow) against what only the api
 * could have produced, before any work: a hold with hold_key = requestId of this user and exactly creditsHeld, and
 * this user's job row, still queued, asking for the same target, kind, depth, crawl timeout, reference and policy;
 * and the workflow's own id is `screening:<request id>` (every starter uses it, and Temporal refuses a second start
 * of a running one). Throws InputNotAuthenticError naming what did not match. `settled`: the same job, already
 * completed by its own workflow (the analysis replayed after the settle committed).
 */
export async function checkJobInput(
  db: Pool | PoolClient,
  input: ScreeningInput,
  workflow: { workflowId: string },
): Promise<'held' | 'settled'> {
  const requestId = requireRequestId(input.requestId);
  if (workflow.workflowId !== screeningWorkflowId(requestId))
    throw new InputNotAuthenticError(`a job of request id ${requestId} runs as ${screeningWorkflowId(requestId)} only`);
  if (typeof input.userId !== 'string' || !LOWER_UUID.test(input.userId) || !isCount(input.creditsHeld))
    throw new InputNotAuthenticError('no hold for this request id, user and amount');
  if (!isCount(input.maxDepth) || !isCount(input.crawlTimeoutMs))
    throw new InputNotAuthenticError('the input is not the job recorded for this request id');
  const { rows } = await db.query<Recorded>(
    `SELECT h.user_id::text AS hold_user, h.amount::text AS hold_amount, j.user_id::text AS job_user,
            j.status AS job_status,
            (j.api_type = $3 AND j.chain = $4 AND j.target = $5 AND j.max_depth::bigint = $6::bigint
             AND j.crawl_timeout_ms::bigint = $7::bigint AND j.credits_held = $8::bigint
             AND j.reference_id IS NOT DISTINCT FROM $9
             AND coalesce(j.policy, 'null'::jsonb) = $10::jsonb) AS same_request
     FROM (VALUES (1)) AS one (x)
     LEFT JOIN credit_holds h ON h.hold_key = $1::text
     LEFT JOIN screening_jobs j ON j.request_id = $1::text::uuid AND j.user_id = $2::text::uuid`,
    [
      requestId,
      input.userId,
      String(input.apiType),
      String(input.chain),
      String(input.target),
      input.maxDepth,
      input.crawlTimeoutMs,
      input.creditsHeld,
      typeof input.referenceId === 'string' ? input.referenceId : null,
      JSON.stringify(input.policy ?? null),
    ],
  );
  const r = rows[0];
  // Its own workflow settled it already (a worker lost after a local settle committed replays the analysis): the job
  // is answered from what was stored, with no work and, the charge being keyed, no second charge.
  if (r?.job_user === input.userId && r.job_status === 'completed' && r.same_request === true) return 'settled';
  if (!r || r.hold_user !== input.userId || Number(r.hold_amount) !== input.creditsHeld)
    throw new InputNotAuthenticError('no hold for this request id, user and amount');
  if (r.job_user === null || r.job_status !== 'queued')
    throw new InputNotAuthenticError('no queued job of this user for this request id');
  if (r.same_request !== true)
    throw new InputNotAuthenticError(
      'the input is not the job recorded for this request id ' + '(target, depth, policy…)',
    );
  return 'held';
}

/**
 * Before a job's failed-analysis settle releases its hold and fails its mirror: the job is this user's and the hold,
 * if still there, is this user's of exactly creditsHeld, in the job's own workflow. Otherwise a hand-started
 * workflow naming another user's request id (its analysis refused or timed out) would give back that user's hold
 * and fail their job. A hold already gone (released by the sweeper) is fine: the mirror write still lands.
 */
export async function checkFailedJobSettle(
  db: Pool | PoolClient,
  job: { requestId: string; userId: string; creditsHeld: number },
  workflow: { workflowId: string },
): Promise<void> {
  const requestId = requireRequestId(job.requestId);
  if (workflow.workflowId !== screeningWorkflowId(requestId))
    throw new InputNotAuthenticError(`a job of request id ${requestId} runs as ${screeningWorkflowId(requestId)} only`);
  if (!LOWER_UUID.test(job.userId) || !isCount(job.creditsHeld))
    throw new InputNotAuthenticError('no job of this user for this request id');
  const { rows } = await db.query<{ job_user: string | null; hold_user: string | null; hold_amount: string | null }>(
    `SELECT (SELECT user_id::text FROM screening_jobs WHERE request_id = $1::text::uuid) AS job_user,
            h.user_id::text AS hold_user, h.amount::text AS hold_amount
     FROM (VALUES (1)) AS one (x) LEFT JOIN credit_holds h ON h.hold_key = $1::text`,
    [requestId],
  );
  const r = rows[0];
  if (!r || r.job_user !== job.userId) throw new InputNotAuthenticError('no job of this user for this request id');
  if (r.hold_user !== null && (r.hold_user !== r.job_user || Number(r.hold_amount) !== job.creditsHeld))
    throw new InputNotAuthenticError('no hold for this request id, user and amount');
}
