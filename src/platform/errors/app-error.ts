import type { ErrorCodeEntry } from './error-table';

/**
 * A domain error that carries its own code, HTTP status and retryability, so no caller maps it again:
 * activities turn it into an ApplicationFailure of `type` = code (temporal-failures.ts), the API's error
 * handler answers it with its status and code. It is raised from an entry of its feature's error table;
 * `retryable` defaults to the entry's and can be narrowed per error (a refused API key is CHAIN_UNAVAILABLE too,
 * but retrying it cannot help).
 */
export class AppError extends Error {
  readonly code: string;
  /** What the API answers when this error reaches a route. */
  readonly httpStatus: number;
  readonly retryable: boolean;

  constructor(
    /** The table entry this error was raised from: what the API answers it with. */
    readonly entry: ErrorCodeEntry,
    message: string,
    options: { retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = entry.code;
    this.httpStatus = entry.status;
    this.retryable = options.retryable ?? entry.retryable;
  }
}
