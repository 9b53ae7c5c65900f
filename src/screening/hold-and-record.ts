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
 * Holds a job's credits and records it as queued in ONE transaction (so concurrent submits can never promise more
 * than the balance), and gives back the workflow input. Idempotency: the hold and the row are keyed by
 * `requestId`; for a request id already recorded (a retried activity), the recorded job is returned as it is.
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
  return inTransaction(deps.pool, async (client): Promise<HoldResult> => {
    // On the transaction's connection: asking the pool for a second one while holding this one deadlocks as soon as
    // as many submits run at once as the pool has connections (each waits for a connection the others hold).
    const recorded = await deps.jobs.findForUser(requestId, userId, client);
    const amount =
      recorded?.creditsHeld ??
      (await deps.credits.reserve(userId, requestId, MINIMUM_CHARGE, analysisCost(plannedDepth), client));
    if (amount === 0) {
      // Read on the same connection: asking the pool for a second one while holding this one can
      // exhaust the pool under a burst of refused submits. Nothing was held, so the commit changes nothing.
      const { available, debt } = await deps.credits.balance(userId, client);
      const paymentFailed = await deps.subscriptions.hasFailedPayment(userId, client);
      return { kind: 'insufficient_credits', needed: MINIMUM_CHARGE, available, paymentFailed, debt };
    }
    const maxDepth = deepestAffordableDepth(amount, plannedDepth);
    const job =
      recorded ??
      (await deps.jobs.insertQueued(
        {
          requestId,
          userId,
          ...request,
          maxDepth,
          creditsHeld: amount,
          httpRequestId: origin.httpRequestId ?? null,
          policy,
        },
        client,
      ));
    const input: ScreeningInput = {
      requestId,
      userId,
      apiType: request.apiType,
      chain: request.chain,
      target: request.target,
      crawlTimeoutMs: request.crawlTimeoutMs,
      maxDepth,
      creditsHeld: amount,
      heartbeatTimeoutMs: deps.heartbeatTimeoutMs,
      referenceId: request.referenceId,
      // A retried hold keeps the policy version first recorded.
      policy: recorded ? recorded.policy : policy,
    };
    return { kind: 'held', job, input };
  });
}
