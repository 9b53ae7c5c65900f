import { AppError } from '../../platform/errors';
import { LISTS_ERRORS } from '../error-codes';

/**
 * The input is not a whole OFAC SDN Advanced XML document: not XML, another XML document, cut short, or without
 * the DateOfIssue every issue carries. Loading it would replace a list with a wrong or partial one, so it is
 * refused whole, and for good: the same bytes read again are no better (LIST_SOURCE_INVALID, not retryable).
 */
export class SdnFormatError extends AppError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(LISTS_ERRORS.LIST_SOURCE_INVALID, message, options);
  }
}
