import { AppError } from '../platform/errors';

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
      'IDEMPOTENCY_KEY_REUSED',
      `Idempotency-Key "${idempotencyKey}" was already used for batch ${batchId} with another body; send the same ` +
        'body to get that batch again, or use a new key for a new batch',
    );
  }
}
