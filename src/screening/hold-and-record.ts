import type { Pool, PoolClient } from 'pg';
import type { CreditStore, SubscriptionStore } from '../billing';
import { inTransaction } from '../platform/db/transaction';
import { AppError } from '../platform/errors';
import type { EngineCapabilities } from './engine/capabilities';
import type { JobRecord, JobStore } from './jobs-store';
import { jobCost, deepestAffordableDepth, MINIMUM_CHARGE } from './pricing';
import type { JobRequest } from './job-request';
import type { ScreeningInput } from './workflow-types';
import type { PolicySnapshot } from './engine/scoring-policy';
import { SCREENING_ERRORS } from './error-codes';

export interface HoldDeps {
  pool: Pool;
  credits: CreditStore;
  jobs: JobStore;
  subscriptions: SubscriptionStore;
  capabilities: EngineCapabilities;
  heartbeatTimeoutMs: number;
}

/** paymentFailed: a subscription's last payment failed, which is why no credits came (spec 3.2). */
export type HoldRefusal = {
  kind: 'insufficient_credits';
  needed: number;
  available: number;
  paymentFailed: boolean;
  debt: number;
};

export type HoldResult = { kind: 'held'; job: JobRecord; input: ScreeningInput } | HoldRefusal;

/** The least and most a job of this kind costs, and the crawl depth each amount in between pays for. */
function holdBounds(capabilities: EngineCapabilities, request: Pick<JobRequest, 'chain' | 'apiType'>) {
  const plannedDepth = capabilities.plannedDepth(request.chain, request.apiType);
  const max = jobCost(plannedDepth);
  const depthByAmount = Array.from({ length: max + 1 }, (_, amount) => deepestAffordableDepth(amount, plannedDepth));
  return { plannedDepth, min: MINIMUM_CHARGE, max, depthByAmount };
}

/**
 * Nothing was held: the refusal says what the account has, and whether a failed payment is why. Both read in one
 * snapshot: the caller's transaction, or one of their own.
 */
async function refusalOf(
  deps: Pick<HoldDeps, 'pool' | 'credits' | 'subscriptions'>,
  userId: string,
  client: PoolClient | null,
): Promise<HoldRefusal> {
  const read = async (db: PoolClient): Promise<HoldRefusal> => {
    const { available, debt } = await deps.credits.balance(userId, db);
    const paymentFailed = await deps.subscriptions.hasFailedPayment(userId, db);
    return { kind: 'insufficient_credits', needed: MINIMUM_CHARGE, available, paymentFailed, debt };
  };
  return client ? read(client) : inTransaction(deps.pool, read);
}

function workflowInput(
  deps: Pick<HoldDeps, 'heartbeatTimeoutMs'>,
  userId: string,
  request: JobRequest,
  requestId: string,
  held: number,
  plannedDepth: number,
  policy: PolicySnapshot | null,
): ScreeningInput {
  return {
    requestId,
    userId,
    apiType: request.apiType,
    chain: request.chain,
    target: request.target,
    crawlTimeoutMs: request.crawlTimeoutMs,
    maxDepth: deepestAffordableDepth(held, plannedDepth),
    creditsHeld: held,
    heartbeatTimeoutMs: deps.heartbeatTimeoutMs,
    referenceId: request.referenceId,
    policy,
  };
}

/**
 * Holds a job's credits and records it as queued in ONE statement (so concurrent submits can never promise more than
 * the balance, and a submit costs one round trip to the database), and gives back the workflow input. `requestId` is
 * fresh (the caller's randomUUID): a second call with the same id would fail on the primary key, holding nothing;
 * a caller whose request id may already be recorded (a retried activity) uses holdAndRecordOnce. A hold already
 * made under `requestId` (reserveJob) is found, not made again: the job is recorded against it.
 * `db`: the caller's transaction, when the record must commit with something of its own.
 */
export async function holdAndRecord(
  deps: HoldDeps,
  userId: string,
  request: JobRequest,
  requestId: string,
  origin: { httpRequestId?: string } = {},
  /** The policy version the job is scored under (resolved by the caller: a PolicyResolver). */
  policy: PolicySnapshot | null = null,
  db: PoolClient | null = null,
): Promise<HoldResult> {
  const { plannedDepth, min, max, depthByAmount } = holdBounds(deps.capabilities, request);
  const { held, job } = await deps.jobs.holdAndInsertQueued(
    { requestId, userId, ...request, httpRequestId: origin.httpRequestId ?? null, policy },
    { min, max, depthByAmount },
    db ?? deps.pool,
  );
  if (!job) return refusalOf(deps, userId, db);
  return { kind: 'held', job, input: workflowInput(deps, userId, request, requestId, held, plannedDepth, policy) };
}

/**
 * holdAndRecord for a request id a retry may already have recorded (a monitor's re-screen: the workflow draws the
 * id, and its prepare activity can be retried after its commit). Idempotency key: the request id. A job already
 * recorded under it for the same account and target is where the retry continues: its hold and the policy version
 * it first recorded give back the same workflow input, and nothing is held or written again. Recorded for another
 * account or target, the id is not this caller's to use: MONITOR_WORKFLOW_NOT_AUTHENTIC, nothing held.
 */
export async function holdAndRecordOnce(
  deps: HoldDeps,
  userId: string,
  request: JobRequest,
  requestId: string,
  policy: PolicySnapshot | null,
  db: PoolClient | null = null,
): Promise<HoldResult> {
  const recorded = await deps.jobs.findForUser(requestId, userId, db ?? deps.pool);
  if (!recorded) {
    const { rows } = await (db ?? deps.pool).query('SELECT 1 FROM screening_jobs WHERE request_id = $1', [requestId]);
    if (rows.length > 0) throw notThisCallers(requestId);
    return holdAndRecord(deps, userId, request, requestId, {}, policy, db);
  }
  if (recorded.apiType !== request.apiType || recorded.chain !== request.chain || recorded.target !== request.target) {
    throw notThisCallers(requestId);
  }
  const { plannedDepth } = holdBounds(deps.capabilities, request);
  const input = workflowInput(deps, userId, request, requestId, recorded.creditsHeld, plannedDepth, recorded.policy);
  return { kind: 'held', job: recorded, input };
}

const notThisCallers = (requestId: string) =>
  new AppError(
    SCREENING_ERRORS.MONITOR_WORKFLOW_NOT_AUTHENTIC,
    `request id ${requestId} is already recorded for another account or target; nothing was held`,
  );

/**
 * Holds what a job of this kind may cost, under `requestId` as the hold key, without recording its job: the
 * job is recorded later by holdAndRecord with the same request id, which finds this hold (a monitor's first
 * job, held in the transaction that creates the monitor). `db` is the caller's transaction. A refusal says
 * what the account has, in the shape a refused submit answers.
 */
export async function reserveJob(
  deps: Pick<HoldDeps, 'pool' | 'credits' | 'subscriptions' | 'capabilities'>,
  userId: string,
  request: Pick<JobRequest, 'chain' | 'apiType'>,
  requestId: string,
  db: PoolClient,
): Promise<{ kind: 'held'; amount: number } | HoldRefusal> {
  const { min, max } = holdBounds(deps.capabilities, request);
  const amount = await deps.credits.reserve(userId, requestId, min, max, db);
  if (amount > 0) return { kind: 'held', amount };
  return refusalOf(deps, userId, db);
}
