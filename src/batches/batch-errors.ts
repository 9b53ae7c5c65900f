import { AppError, PLATFORM_ERRORS } from '../platform/errors';

/**
 * An Idempotency-Key this account already used for a batch with another body: the key names that batch, so a
 * different request under it is refused (409) instead of answering the old batch for a new question.
 */
export class IdempotencyKeyReusedError extends AppError {
  constructor(
    readonly idempotencyKey: string,
    readonly batchId: string,
  ) {
    super(
      PLATFORM_ERRORS.IDEMPOTENCY_KEY_REUSED,
      `Idempotency-Key "${idempotencyKey}" was already used for batch ${batchId} with another body; send the same ` +
        'body to get that batch again, or use a new key for a new batch',
    );
  }
}

/**
 * No item of the batch is valid: nothing is stored or started, and the request is refused (400) naming the first
 * item's field at fault, as a single job's invalid request is.
 */
export class NoValidItemError extends Error {
  constructor(
    readonly first: { parameter: string; message: string },
    readonly invalidCount: number,
  ) {
    super(`no item of the batch is valid (${invalidCount} invalid); ${first.parameter}: ${first.message}`);
  }
}

/**
 * Every valid item was refused for credits (the balance could not hold even the first): nothing is stored, held or
 * started, and the request answers the 402 a single job's submit would (INSUFFICIENT_CREDITS, CREDITS_IN_DEBT,
 * SUBSCRIPTION_PAYMENT_FAILED).
 */
export class NoItemHeldError extends Error {
  constructor(readonly refusal: { needed: number; available: number; debt: number; paymentFailed: boolean }) {
    super(`no item of the batch could be held (${refusal.available} credits available)`);
  }
}
