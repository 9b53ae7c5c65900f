/**
 * Where the error vocabulary crosses Temporal: activities throw `toApplicationFailure(err)`, workflows read
 * `failureCode(err)`. Imports only @temporalio/common and pure modules, so workflows can use it.
 */
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/common';
import { AppError } from './app-error';
import { isErrorCode, type ErrorCode } from './error-codes';

/** Failure types written by workers before the vocabulary had codes; kept so running workflows replay alike. */
const LEGACY_TYPES: Record<string, ErrorCode> = {
  InvalidTarget: 'INVALID_TARGET',
  TransactionNotFound: 'TRANSACTION_NOT_FOUND',
  ChainUnavailable: 'CHAIN_UNAVAILABLE',
  InsufficientCredits: 'INSUFFICIENT_CREDITS',
  SubscriptionNotKnownYet: 'SUBSCRIPTION_NOT_KNOWN_YET',
  PaymentNotKnownYet: 'PAYMENT_NOT_KNOWN_YET',
  PayFastUnavailable: 'PAYFAST_UNAVAILABLE',
  MarketSourceRejected: 'MARKET_SOURCE_REJECTED',
};

/**
 * An AppError becomes a failure of `type` = its code, retryable as it says; anything else is left to the retry policy.
 */
export function toApplicationFailure(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  return ApplicationFailure.create({ message: err.message, type: err.code, nonRetryable: !err.retryable });
}

/** The code of an activity's or child's failure, or undefined when it is not one of ours (a timeout, a bug). */
export function failureCode(err: unknown): ErrorCode | undefined {
  const cause = err instanceof ActivityFailure || err instanceof ChildWorkflowFailure ? err.cause : err;
  if (!(cause instanceof ApplicationFailure) || !cause.type) return undefined;
  if (isErrorCode(cause.type)) return cause.type;
  return LEGACY_TYPES[cause.type];
}

/** What a failed job tells its owner: our code and message, or ANALYSIS_FAILED for anything unknown. */
export function describeFailure(err: unknown): { code: ErrorCode; message: string } {
  const cause = err instanceof ActivityFailure || err instanceof ChildWorkflowFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure)
    return { code: failureCode(err) ?? 'ANALYSIS_FAILED', message: cause.message };
  return { code: 'ANALYSIS_FAILED', message: err instanceof Error ? err.message : 'analysis failed' };
}
