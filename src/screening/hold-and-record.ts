import type { Pool } from 'pg';
import type { CreditStore, SubscriptionStore } from '../billing';
import { inTransaction } from '../platform/db/transaction';
import type { EngineCapabilities } from './engine/capabilities';
import type { JobRecord, JobStore } from './jobs-store';
import { analysisCost, deepestAffordableDepth, MINIMUM_CHARGE } from './pricing';
import type { ScreeningRequest } from './screening-request';
import type { ScreeningInput } from './workflow-types';
import type { PolicySnapshot } from './engine/scoring-policy';

export interface HoldDeps {
  pool: Pool;
  credits: CreditStore;
  jobs: JobStore;
  subscriptions: SubscriptionStore;
  capabilities: EngineCapabilities;
  heartbeatTimeoutMs: number;
}

export type HoldResult =
  | { kind: 'held'; job: JobRecord; input: ScreeningInput }
  /** paymentFailed: a subscription's last payment failed, which is why no credits came (spec 3.2). */
  | { kind: 'insufficient_credits'; needed: number; available: number; paymentFailed: boolean; debt: number };

/**
 * Holds a job's credits and records it as queued in ONE statement (so concurrent submits can never promise more than
 * the balance, and a submit costs one round trip to the database), and gives back the workflow input. `requestId` is
 * fresh (the caller's randomUUID): a second call with the same id would fail on the primary key, holding nothing.
 */
export async function holdAndRecord(
  deps: HoldDeps,
  userId: string,
  request: ScreeningRequest,
  requestId: string,
  origin: { httpRequestId?: string } = {},
  /** The policy version the job is scored under (resolved by the caller: a PolicyResolver). */
  policy: PolicySnapshot | null = null,
): Promise<HoldResult> {
  const plannedDepth = deps.capabilities.plannedDepth(request.chain, request.apiType);
  const max = analysisCost(plannedDepth);
  const depthByAmount = Array.from({ length: max + 1 }, (_, amount) => deepestAffordableDepth(amount, plannedDepth));
  const { held, job } = await deps.jobs.holdAndInsertQueued(
    { requestId, userId, ...request, httpRequestId: origin.httpRequestId ?? null, policy },
    { min: MINIMUM_CHARGE, max, depthByAmount },
  );
  if (!job) {
    // Nothing was held: the refusal says what the account has, and whether a failed payment is why.
    return inTransaction(deps.pool, async (client): Promise<HoldResult> => {
      const { available, debt } = await deps.credits.balance(userId, client);
      const paymentFailed = await deps.subscriptions.hasFailedPayment(userId, client);
      return { kind: 'insufficient_credits', needed: MINIMUM_CHARGE, available, paymentFailed, debt };
    });
  }
  const input: ScreeningInput = {
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
  return { kind: 'held', job, input };
}
