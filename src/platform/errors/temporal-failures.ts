/**
 * Where the error vocabulary crosses Temporal: activities throw `toApplicationFailure(err)`, workflows read
 * `failureCode(err)`. Imports only @temporalio/common and pure modules, so workflows can use it.
 */
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/common';
import { AppError } from './app-error';
import { PLATFORM_ERRORS } from './error-codes';
import { ERROR_CODE_PATTERN } from './error-table';

/**
 * An AppError becomes a failure of `type` = its code, retryable as it says; anything else is left to the retry policy.
 */
export function toApplicationFailure(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  return ApplicationFailure.create({ message: err.message, type: err.code, nonRetryable: !err.retryable });
}

/**
 * The code of an activity's or child's failure, or undefined when it is not one of ours (a timeout, a bug). Ours
 * are the UPPER_SNAKE_CASE types (error-table.ts): Temporal names any other error's failure after its class.
 * Compare it with the entry the caller expects: `failureCode(err) === MARKET_ERRORS.MARKET_SYNC_NOT_CONFIGURED.code`.
 */
export function failureCode(err: unknown): string | undefined {
  const cause = err instanceof ActivityFailure || err instanceof ChildWorkflowFailure ? err.cause : err;
  if (!(cause instanceof ApplicationFailure) || !cause.type) return undefined;
  return ERROR_CODE_PATTERN.test(cause.type) ? cause.type : undefined;
}

/** What a failed job tells its owner: our code and message, or ANALYSIS_FAILED for anything unknown. */
export function describeFailure(err: unknown): { code: string; message: string } {
  const cause = err instanceof ActivityFailure || err instanceof ChildWorkflowFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure)
    return { code: failureCode(err) ?? PLATFORM_ERRORS.ANALYSIS_FAILED.code, message: cause.message };
  return {
    code: PLATFORM_ERRORS.ANALYSIS_FAILED.code,
    message: err instanceof Error ? err.message : 'analysis failed',
  };
}
