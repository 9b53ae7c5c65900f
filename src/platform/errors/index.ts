export { AppError } from './app-error';
export { ERROR_CODES, httpStatusOf, isErrorCode, type ErrorCode } from './error-codes';
