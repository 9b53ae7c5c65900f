import { ERROR_CODES, type ErrorCode } from './error-codes';

/**
 * A domain error that carries its own code, HTTP status and retryability, so no caller maps it again:
 * activities turn it into an ApplicationFailure of `type` = code (temporal-failures.ts), the API's error
 * handler answers it with its status and code. `retryable` defaults to the code's and can be narrowed per
 * error (a refused API key is CHAIN_UNAVAILABLE too, but retrying it cannot help).
 */
export class AppError extends Error {
  /** What the API answers when this error reaches a route. */
  readonly httpStatus: number;
  readonly retryable: boolean;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.httpStatus = ERROR_CODES[code].status;
    this.retryable = options.retryable ?? ERROR_CODES[code].retryable;
  }
}
