import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { CreditStore, SubscriptionStore } from '../billing';
import { inTransaction } from '../platform/db/transaction';
import { errorFields, type Logger } from '../platform/logging/logger';
import {
  jobCost,
  deepestAffordableDepth,
  type EngineCapabilities,
  type JobStore,
  MINIMUM_CHARGE,
  type NewJob,
  type PolicyResolver,
  type PolicySnapshot,
} from '../screening';
import { IdempotencyKeyReusedError, NoItemHeldError, NoValidItemError } from './batch-errors';
import type { BatchItemRequest, BatchRequest } from './batch-request';
import type { BatchRecord, BatchStore, BatchSummary, NewBatchItem } from './batch-store';
import type { BatchWorkflowStarter } from './batch-workflow-starter';
import { BILLING_ERRORS } from '../billing';
import { PLATFORM_ERRORS } from '../platform/errors';

export interface BatchServiceDeps {
  pool: Pool;
  credits: CreditStore;
  /** Whether a failed subscription payment is why a batch none of whose items could be held has no credits. */
  subscriptions: Pick<SubscriptionStore, 'hasFailedPayment'>;
  jobs: Pick<JobStore, 'insertQueuedMany'>;
  batches: BatchStore;
  capabilities: EngineCapabilities;
  /** Finds the policy version every item is scored under (the policies feature). */
  policies: PolicyResolver;
  starter: BatchWorkflowStarter;
  log: Logger;
  /** Counted per accepted item, as a submit counts its job (each ends counted as completed or failed). */
  metrics?: { jobSubmitted(apiType: string, chain: string): void };
}

export interface SubmittedBatch {
  batch: BatchSummary;
  /** True when the Idempotency-Key named a batch recorded by an earlier request with the same body. */
  replayed: boolean;
}

type ValidItem = Extract<BatchItemRequest, { valid: true }>;

function refusedMessage(available: number, debt: number): string {
  return debt > 0
    ? `Insufficient credits: the account owes ${debt} credits taken back by a refund or reversal after they were ` +
        'spent; new analyses start again once a payment covers it'
    : `Insufficient credits: an analysis needs at least ${MINIMUM_CHARGE} credit, and the items before this one ` +
        `held what the balance had (${available} available after them)`;
}

/**
 * Submitting a batch: every item is validated first (invalid ones cost nothing), the policy resolved once, then in
 * ONE transaction the batch row (unique per account and Idempotency-Key), a hold per valid item in item order
 * exactly as a single job holds (reserve_credits_many: an item the balance cannot pay for is refused and holds
 * nothing), a queued job per accepted item and a row per item. After the commit the batch workflow is started;
 * every replay of the request starts it too, so a crash between the commit and the start is repaired by a retry
 * (and by the sweep). A batch none of whose items is valid (NoValidItemError), or none of whose valid items the
 * balance can hold (NoItemHeldError: the transaction rolls back), stores and starts nothing.
 */
export function createBatchService(deps: BatchServiceDeps) {
  /** The recorded batch for a repeat of the request: the same body, or the key is refused. */
  async function replay(existing: BatchRecord, request: BatchRequest): Promise<SubmittedBatch> {
    if (existing.bodySha256 !== request.bodySha256)
      throw new IdempotencyKeyReusedError(request.idempotencyKey as string, existing.id);
    await ensureStarted(existing);
    return { batch: (await deps.batches.findForUser(existing.id, existing.userId)) as BatchSummary, replayed: true };
  }

  /**
   * A start that fails leaves the batch recorded with its holds: it is answered all the same (retrying the request
   * with its Idempotency-Key, or the sweep within a minute, starts it), never reported as not created.
   */
  async function ensureStarted(batch: Pick<BatchRecord, 'id' | 'userId' | 'status'>): Promise<void> {
    if (batch.status === 'completed') return;
    try {
      await deps.starter.ensureStarted(batch);
    } catch (err) {
      deps.log.error('batch workflow could not be started; the sweep or a retry starts it', {
        batchId: batch.id,
        ...errorFields(err),
      });
    }
  }

  async function record(
    userId: string,
    request: BatchRequest,
    policy: PolicySnapshot | null,
    origin: { httpRequestId?: string },
    client: PoolClient,
  ): Promise<BatchRecord | null> {
    const batch = await deps.batches.insert(
      {
        id: randomUUID(),
        userId,
        idempotencyKey: request.idempotencyKey,
        bodySha256: request.bodySha256,
        policy,
        crawlTimeoutMs: request.crawlTimeoutMs,
      },
      client,
    );
    if (!batch) return null;
    const valid = request.items.filter((item): item is ValidItem => item.valid);
    const planned = valid.map((item) => {
      const depth = deps.capabilities.plannedDepth(item.request.chain, item.request.apiType);
      return { item, depth, requestId: randomUUID() };
    });
    const held = await deps.credits.reserveMany(
      userId,
      planned.map((p) => ({ holdKey: p.requestId, max: jobCost(p.depth) })),
      MINIMUM_CHARGE,
      client,
    );
    const refused = held.some((amount) => amount === 0) ? await deps.credits.balance(userId, client) : null;
    if (refused && held.every((amount) => amount === 0)) {
      // Not one item could be held: the transaction rolls back (no batch row, no item rows, no holds), nothing starts.
      const paymentFailed = await deps.subscriptions.hasFailedPayment(userId, client);
      throw new NoItemHeldError({
        needed: MINIMUM_CHARGE,
        available: refused.available,
        debt: refused.debt,
        paymentFailed,
      });
    }
    const jobs: NewJob[] = [];
    const rows = new Map<number, NewBatchItem>();
    planned.forEach(({ item, depth, requestId }, i) => {
      const { apiType, chain, target, referenceId } = item.request;
      const amount = held[i] ?? 0;
      if (amount === 0) {
        const message = refusedMessage(refused?.available ?? 0, refused?.debt ?? 0);
        rows.set(item.index, {
          ...{ index: item.index, requestId: null, apiType, chain, target, referenceId, status: 'refused' },
          error: { code: BILLING_ERRORS.INSUFFICIENT_CREDITS.code, message },
          creditsHeld: 0,
          maxDepth: null,
        });
        return;
      }
      const maxDepth = deepestAffordableDepth(amount, depth);
      jobs.push({
        ...item.request,
        requestId,
        userId,
        maxDepth,
        creditsHeld: amount,
        httpRequestId: origin.httpRequestId ?? null,
        policy,
        batchId: batch.id,
      });
      rows.set(item.index, {
        ...{ index: item.index, requestId, apiType, chain, target, referenceId, status: 'queued', error: null },
        creditsHeld: amount,
        maxDepth,
      });
    });
    for (const item of request.items) {
      if (item.valid) continue;
      const { index, apiType, chain, target, referenceId, parameter, message } = item;
      rows.set(index, {
        ...{ index, requestId: null, apiType, chain, target, referenceId, status: 'invalid' },
        error: { code: PLATFORM_ERRORS.INVALID_PARAMETER.code, message, parameter },
        creditsHeld: 0,
        maxDepth: null,
      });
    }
    await deps.jobs.insertQueuedMany(jobs, client);
    await deps.batches.insertItems(
      batch.id,
      [...rows.values()].sort((a, b) => a.index - b.index),
      client,
    );
    for (const job of jobs) deps.metrics?.jobSubmitted(job.apiType, job.chain);
    return batch;
  }

  return {
    async submit(
      userId: string,
      request: BatchRequest,
      origin: { httpRequestId?: string } = {},
    ): Promise<SubmittedBatch> {
      const key = request.idempotencyKey;
      const earlier = key ? await deps.batches.findByIdempotencyKey(userId, key) : null;
      if (earlier) return replay(earlier, request);
      // A batch with no valid item stores nothing and starts nothing: refused as a single invalid job is.
      if (!request.items.some((item) => item.valid)) {
        const first = request.items.find((item) => !item.valid);
        if (first && !first.valid)
          throw new NoValidItemError({ parameter: first.parameter, message: first.message }, request.items.length);
      }
      // Resolved once, before anything is held: every item keeps this version whatever edits follow.
      const policy = await deps.policies.resolve(userId, request.policyId);
      const batch = await inTransaction(deps.pool, (client) => record(userId, request, policy, origin, client));
      if (!batch) {
        // A concurrent twin with the same key committed first (this insert waited for it): its batch is the answer.
        const twin = await deps.batches.findByIdempotencyKey(userId, key as string);
        if (!twin) throw new Error(`batch with Idempotency-Key ${key} vanished`);
        return replay(twin, request);
      }
      await ensureStarted(batch);
      return { batch: (await deps.batches.findForUser(batch.id, userId)) as BatchSummary, replayed: false };
    },
  };
}

export type BatchService = ReturnType<typeof createBatchService>;
