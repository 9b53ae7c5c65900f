import type { RequestHandler } from 'express';
import { invalidParameter } from './errors';
import { findUnsafeInput, isUtf8Query } from './unsafe-input';

/**
 * Mounted right after express.json: a query string that is not UTF-8, or a body or query carrying
 * text Postgres cannot store, prototype keys or runaway nesting (see unsafe-input.ts), is answered
 * 400 INVALID_PARAMETER naming where, before any route reads it.
 */
export const refuseUnsafeInput: RequestHandler = (req, _res, next) => {
  const question = req.originalUrl.indexOf('?');
  if (question >= 0 && !isUtf8Query(req.originalUrl.slice(question + 1))) {
    return next(
      invalidParameter('query', 'a query string of percent-encoded UTF-8', 'The query string is not valid UTF-8'),
    );
  }
  const unsafe = findUnsafeInput(req.body, 'body') ?? findUnsafeInput(req.query, 'query');
  next(unsafe ? invalidParameter(unsafe.parameter, unsafe.expected) : undefined);
};
