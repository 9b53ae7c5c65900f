import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { ZodType } from 'zod';
import type { Logger } from '../logging/logger';
import { errorFields } from '../logging/logger';
import { isDatabaseUnavailable } from '../db/unavailable';
import { InvalidUtf8BodyError } from './unsafe-input';
import { requestLogOf } from './request-id';
import { AppError, PLATFORM_ERRORS, type ErrorCodeEntry } from '../errors';

/** An error that already knows its HTTP answer, in one of the contract's two shapes. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.error === 'string' ? body.error : `HTTP ${status}`);
    this.name = 'HttpError';
  }
}

/** Flat shape: `{success:false, error, code}`, answered with the code's status. */
export function flatError(code: ErrorCodeEntry, message: string, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError(code.status, { success: false, error: message, code: code.code, ...extra });
}

/** Structured shape: `{error:{code, message, details}}` (success:false added so clients can test one field). */
export function structuredError(
  code: ErrorCodeEntry,
  message: string,
  details: Record<string, unknown> = {},
): HttpError {
  return new HttpError(code.status, { success: false, error: { code: code.code, message, details } });
}

export function invalidParameter(parameter: string, expected: string, message?: string): HttpError {
  return structuredError(
    PLATFORM_ERRORS.INVALID_PARAMETER,
    message ?? `Invalid parameter "${parameter}": expected ${expected}`,
    { parameter, expected },
  );
}

/** The contract's 401 carries no code (spec 7). */
export const authenticationRequired = (): HttpError =>
  new HttpError(401, { success: false, error: 'Authentication required' });
export const notFound = (what: string): HttpError => flatError(PLATFORM_ERRORS.NOT_FOUND, `${what} not found`);

/** Parses a request part with zod; the first problem becomes a 400 naming the parameter and what was expected. */
export function parseOrThrow<T>(schema: ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  // An unknown field is named itself, not the object that holds it (a strict schema refuses it).
  if (issue?.code === 'unrecognized_keys' && issue.keys[0] !== undefined) {
    const parameter = [...issue.path, issue.keys[0]].join('.');
    throw invalidParameter(
      parameter,
      'no such field',
      `Invalid parameter "${parameter}": not a field of this request (unknown fields are refused)`,
    );
  }
  const parameter = issue && issue.path.length > 0 ? issue.path.join('.') : 'body';
  // A record's bad key: zod says "Invalid key in record"; the key schema's own message says what keys exist.
  const keyProblem = issue?.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
  throw invalidParameter(parameter, keyProblem ?? issue?.message ?? 'a valid value');
}

export const unknownRoute: RequestHandler = (req, _res, next) => {
  next(flatError(PLATFORM_ERRORS.NOT_FOUND, `No route for ${req.method} ${req.path}`));
};

interface BodyParserError {
  type?: string;
  status?: number;
}

/** The one place where failures become HTTP: known errors keep their answer, anything else is a logged, bland 500. */
export function createErrorHandler(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (err instanceof HttpError) {
      res.set(err.headers).status(err.status).json(err.body);
      return;
    }
    if (err instanceof AppError) {
      // A domain error that reached a route unhandled answers what it carries, in the flat shape.
      res.status(err.httpStatus).json(flatError(err.entry, err.message).body);
      return;
    }
    if (err instanceof InvalidUtf8BodyError) {
      res.status(400).json(invalidParameter('body', 'JSON encoded as UTF-8', err.message).body);
      return;
    }
    const parserError = err as BodyParserError;
    if (parserError?.type === 'entity.parse.failed') {
      res.status(400).json(invalidParameter('body', 'a JSON document', 'Request body is not valid JSON').body);
      return;
    }
    if (parserError?.type === 'entity.too.large') {
      res.status(413).json(flatError(PLATFORM_ERRORS.PAYLOAD_TOO_LARGE, 'Request body too large').body);
      return;
    }
    if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
      // The parser's own status (415 for an unknown encoding), with the generic code.
      res.status(parserError.status).json(flatError(PLATFORM_ERRORS.BAD_REQUEST, 'Malformed request').body);
      return;
    }
    if (isDatabaseUnavailable(err)) {
      // A hung or unreachable database: answered as retryable within the pool's timeouts, never left waiting.
      requestLogOf(res, log).warn('database unavailable for a request', {
        method: req.method,
        path: req.path,
        ...errorFields(err),
      });
      res
        .set('Retry-After', '5')
        .status(503)
        .json(
          flatError(
            PLATFORM_ERRORS.SERVICE_UNAVAILABLE,
            'The database is temporarily unavailable; please retry ' +
              '(requests with an idempotency key are safe to repeat)',
          ).body,
        );
      return;
    }
    requestLogOf(res, log).error('unhandled request error', {
      method: req.method,
      path: req.path,
      ...errorFields(err),
    });
    res.status(500).json(flatError(PLATFORM_ERRORS.INTERNAL, 'Internal error').body);
  };
}
